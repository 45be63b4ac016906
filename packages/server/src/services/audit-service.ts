import { type AuditEvent, createGateCatalog, type GateCatalog } from '@gatehouse/core';
import type { AuditCheckpoint, AuditFilter, AuditVerification, Page } from '@gatehouse/store';
import type { AppContext } from '../context.js';
import { commit } from './commit.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 200;
const TRUNCATED_KIND = 'audit.truncated';
/** Retention runs hourly; it only ever removes a prefix of the chain, so it is cheap to repeat. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** Reading, exporting and verifying the audit trail, and the retention job that truncates it. */
export interface AuditService {
  query(filter: AuditFilter): Promise<Page<AuditEvent>>;
  /** JSON Lines in batches: the checkpoint first (if any), then one event per line. */
  exportLines(): AsyncIterable<string>;
  verify(): Promise<AuditVerification>;
  /** Truncates the oldest events whose retention has passed; returns the new checkpoint, or null. */
  runRetention(): Promise<AuditCheckpoint | null>;
  /** Starts the hourly retention job; the returned function stops it. */
  startRetention(intervalMs?: number): () => void;
}

/** How long an event must be kept: its gate type's retention for gate events, the longest otherwise. */
function createRetentionLookup(
  ctx: AppContext,
  catalog: GateCatalog,
): (event: AuditEvent) => Promise<number> {
  const days = catalog.list().map((definition) => definition.retentionDays);
  const longest = Math.max(...days);
  const shortest = Math.min(...days);
  const typeOfGate = new Map<string, string | null>();
  return async (event) => {
    // The checkpoint row carries what a truncation marker says, so the marker never holds the cut back.
    if (event.kind === TRUNCATED_KIND) return shortest * DAY_MS;
    const subject = event.subject;
    if (subject === null || !subject.startsWith('gate_')) return longest * DAY_MS;
    if (!typeOfGate.has(subject)) {
      const gate = await ctx.store.read((tx) => tx.getGate(subject));
      typeOfGate.set(subject, gate?.type ?? null);
    }
    const type = typeOfGate.get(subject) ?? null;
    return (type !== null && catalog.has(type) ? catalog.get(type).retentionDays : longest) * DAY_MS;
  };
}

/**
 * The time before which every event may go: the chain can only lose a prefix, so the first
 * event still inside its retention stops the cut. Null when nothing can be removed.
 */
async function retentionCutoff(ctx: AppContext, catalog: GateCatalog, now: number): Promise<number | null> {
  const retentionOf = createRetentionLookup(ctx, catalog);
  let removable = 0;
  let lastAt: number | null = null;
  for await (const event of ctx.store.streamAudit()) {
    if (now - event.at < (await retentionOf(event))) return removable === 0 ? null : event.at;
    removable += 1;
    lastAt = event.at;
  }
  // Every event is past its retention: keep the newest so the chain keeps a head.
  return removable > 1 ? lastAt : null;
}

async function* exportLines(ctx: AppContext): AsyncIterable<string> {
  const checkpoint = await ctx.store.getAuditCheckpoint();
  let batch: string[] = checkpoint ? [JSON.stringify({ checkpoint })] : [];
  for await (const event of ctx.store.streamAudit()) {
    batch.push(JSON.stringify(event));
    if (batch.length >= EXPORT_BATCH) {
      yield `${batch.join('\n')}\n`;
      batch = [];
    }
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}

/** Creates the audit service. */
export function createAuditService(ctx: AppContext, options: { catalog?: GateCatalog } = {}): AuditService {
  const catalog = options.catalog ?? createGateCatalog();

  async function runRetention(): Promise<AuditCheckpoint | null> {
    const before = await retentionCutoff(ctx, catalog, ctx.clock.now());
    if (before === null) return null;
    const checkpoint = await ctx.store.truncateAudit({ before });
    if (checkpoint) {
      await commit(ctx, ({ audit }) =>
        audit({ kind: TRUNCATED_KIND, actor: 'system:retention', subject: null, data: { ...checkpoint } }),
      );
      ctx.log.info(
        { seq: checkpoint.seq, removed: checkpoint.removed },
        'audit retention truncated the trail',
      );
    }
    return checkpoint;
  }

  return {
    query: (filter) => ctx.store.queryAudit(filter),
    exportLines: () => exportLines(ctx),
    verify: () => ctx.store.verifyAuditChain(),
    runRetention,
    startRetention(intervalMs = RETENTION_INTERVAL_MS) {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        runRetention()
          .catch((err: unknown) => ctx.log.error({ err }, 'audit retention failed'))
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
