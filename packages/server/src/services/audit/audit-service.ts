import { type AuditEvent, createGateCatalog, type GateCatalog } from 'gatehouse-hitl-core';
import {
  type AuditCheckpoint,
  type AuditFilter,
  type AuditVerification,
  CHECKPOINT_KIND,
  type Page,
  type StartSigner,
  startStatement,
} from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import {
  type AuditCheckpoints,
  type CheckpointOutcome,
  createAuditCheckpoints,
} from './audit-checkpoints.js';
import { auditHeadsPath, readAuditHeadsFile } from './audit-heads.js';
import { type AuditSigner, loadAuditSigner } from './audit-signing.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 200;
const TRUNCATED_KIND = 'audit.truncated';
/** Retention runs hourly; it only ever removes a prefix of the chain, so it is cheap to repeat. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** Reading, exporting and verifying the audit trail, and the retention job that truncates it. */
export interface AuditService {
  query(filter: AuditFilter): Promise<Page<AuditEvent>>;
  /** Signs the head first, then JSON Lines in batches: the retention start (if any), then one event per line. */
  exportLines(): AsyncIterable<string>;
  /** The chain, its signed checkpoints and the published heads, against this server's key. */
  verify(): Promise<AuditVerification>;
  /** Signs the chain's head now when new events exist (the scheduler does this every interval). */
  checkpoint(): Promise<CheckpointOutcome>;
  /** The public half of the audit key, for verifying exports offline. */
  publicKey(): { algorithm: 'Ed25519'; keyId: string; publicKey: string };
  /** Truncates the oldest events whose retention has passed; returns the new checkpoint, or null. */
  runRetention(): Promise<AuditCheckpoint | null>;
  /** Starts the hourly retention job; the returned function stops it. */
  startRetention(intervalMs?: number): () => void;
  /** The checkpoint scheduler: started when the app is ready, stopped on close. */
  checkpoints: Pick<AuditCheckpoints, 'start' | 'stop'>;
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
    // The start row says what a truncation marker or an older checkpoint said, so neither holds the cut back.
    if (event.kind === TRUNCATED_KIND || event.kind === CHECKPOINT_KIND) return shortest * DAY_MS;
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

async function* exportLines(ctx: AppContext, checkpoints: AuditCheckpoints): AsyncIterable<string> {
  // A refused or failed checkpoint is logged; the export still goes out, as evidence.
  await checkpoints
    .write()
    .catch((err: unknown) => ctx.log.error({ err }, 'audit checkpoint before export failed'));
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
function startSigner(signer: () => AuditSigner): StartSigner {
  return (start) => {
    const { keyId, sign } = signer();
    return { keyId, signature: sign(startStatement({ ...start, keyId })) };
  };
}

export function createAuditService(ctx: AppContext, options: { catalog?: GateCatalog } = {}): AuditService {
  const catalog = options.catalog ?? createGateCatalog();
  let loaded: AuditSigner | null = null;
  // Loaded on first use, so an app that never signs or verifies never creates a key file.
  const signer = () => {
    loaded ??= loadAuditSigner(ctx.config, ctx.log);
    return loaded;
  };
  const checkpoints = createAuditCheckpoints(ctx, signer);

  async function runRetention(): Promise<AuditCheckpoint | null> {
    const before = await retentionCutoff(ctx, catalog, ctx.clock.now());
    if (before === null) return null;
    const checkpoint = await ctx.store.truncateAudit({ before, sign: startSigner(signer) });
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
    exportLines: () => exportLines(ctx, checkpoints),
    verify: async () =>
      ctx.store.verifyAuditChain({
        publicKey: signer().publicKey,
        heads: await readAuditHeadsFile(auditHeadsPath(ctx.config)),
      }),
    checkpoint: () => checkpoints.write(),
    publicKey: () => ({ algorithm: 'Ed25519', keyId: signer().keyId, publicKey: signer().publicKeyPem }),
    checkpoints,
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
