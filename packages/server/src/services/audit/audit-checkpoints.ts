import type { AuditEvent } from 'gatehouse-hitl-core';
import {
  type AuditRepo,
  type AuditVerification,
  CHECKPOINT_KIND,
  type ChainStart,
  checkpointStatement,
  type SignedCheckpoint,
  verifyAuditChain,
} from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import { appendAuditHead, auditHeadsPath, readAuditHeadsFile } from './audit-heads.js';
import type { AuditSigner } from './audit-signing.js';

// Events per read of the chain: reading and hashing one batch runs without a break, so a batch stays
// near half a millisecond each; 500 held the event loop 2.8 ms to read and 3.5 ms to hash (p50).
const READ_BATCH = 64;

/** What one attempt to sign the head did. */
export type CheckpointOutcome =
  | { status: 'written'; checkpoint: SignedCheckpoint }
  | { status: 'unchanged' }
  | { status: 'refused'; failure: Extract<AuditVerification, { ok: false }> };

/** Signs the chain's head now and then; the app starts it when ready and stops it on close. */
export interface AuditCheckpoints {
  /** Signs the head if events came after the last checkpoint and the chain still matches it. */
  write(): Promise<CheckpointOutcome>;
  start(): void;
  /** Stops the timer and signs the head one last time. */
  stop(): Promise<void>;
}

/** What checking the chain reads; it never appends. */
type ChainReads = Pick<AuditRepo, 'getAuditCheckpoint' | 'listAuditEvents'>;

async function* eventsFrom(tx: ChainReads, fromSeq: number): AsyncGenerator<AuditEvent> {
  for (let next = fromSeq; ; ) {
    const batch = await tx.listAuditEvents(next, READ_BATCH);
    yield* batch;
    const last = batch.at(-1);
    if (last === undefined || batch.length < READ_BATCH) return;
    next = last.seq + 1;
  }
}

/** The hash the chain has at `seq` now: the retention start's, or that event's; null when gone. */
async function hashAt(tx: ChainReads, seq: number): Promise<string | null> {
  const start = await tx.getAuditCheckpoint();
  if (start?.seq === seq) return start.hash;
  const [event] = await tx.listAuditEvents(seq, 1);
  return event?.seq === seq ? event.hash : null;
}

/** A point of the chain: the event at `seq` has `hash`. */
interface ChainPoint {
  seq: number;
  hash: string;
}

/** The chain's reads outside any write: one short read per batch, letting other work run between them. */
function readsOutside(ctx: AppContext): ChainReads {
  return {
    getAuditCheckpoint: () => ctx.store.read((tx) => tx.getAuditCheckpoint()),
    async listAuditEvents(fromSeq, limit) {
      const batch = await ctx.store.read((tx) => tx.listAuditEvents(fromSeq, limit));
      await new Promise((resolve) => setImmediate(resolve));
      return batch;
    },
  };
}

/**
 * A signature vouches for what the server checked: the chain from this node's last checkpoint
 * (or from the signed start) up to the head must still hold, so a rewritten trail is never signed.
 * Also says where the check ended, when it held.
 */
async function checkSinceAnchor(
  tx: ChainReads,
  anchor: SignedCheckpoint | null,
  signer: AuditSigner,
): Promise<{ checked: AuditVerification; end: ChainPoint | null }> {
  const start = await tx.getAuditCheckpoint();
  const fromAnchor = anchor !== null && (start === null || anchor.seq >= start.seq);
  if (fromAnchor && (await hashAt(tx, anchor.seq)) !== anchor.hash) {
    const at = { seq: anchor.seq, at: anchor.at, source: 'heads' as const };
    return {
      checked: { ok: false, seq: anchor.seq, reason: 'checkpoint_mismatch', checkpoint: at },
      end: null,
    };
  }
  const origin: ChainStart | null = fromAnchor ? anchor : start;
  const checked = await verifyAuditChain(eventsFrom(tx, (origin?.seq ?? 0) + 1), {
    start: origin,
    trustStart: fromAnchor,
    publicKey: signer.publicKey,
  });
  const end =
    checked.ok && checked.lastHash !== null
      ? { seq: (origin?.seq ?? 0) + checked.count, hash: checked.lastHash }
      : null;
  return { checked, end };
}

/**
 * Inside the write: the chain still has the point checked before it, and what came after holds.
 * Without such a point (the check outside failed or found nothing) the whole stretch is checked here.
 */
async function checkBeforeSigning(
  tx: ChainReads,
  anchor: SignedCheckpoint | null,
  checkedTo: ChainPoint | null,
  signer: AuditSigner,
): Promise<AuditVerification> {
  if (checkedTo === null || (await hashAt(tx, checkedTo.seq)) !== checkedTo.hash)
    return (await checkSinceAnchor(tx, anchor, signer)).checked;
  return verifyAuditChain(eventsFrom(tx, checkedTo.seq + 1), {
    start: checkedTo,
    trustStart: true,
    publicKey: signer.publicKey,
  });
}

/**
 * Checks the long stretch since the anchor in short reads outside any write, then, in one short
 * write, checks only what came after and signs the head.
 */
async function signHead(
  ctx: AppContext,
  signer: AuditSigner,
  anchor: SignedCheckpoint | null,
): Promise<CheckpointOutcome> {
  const { end: checkedTo } = await checkSinceAnchor(readsOutside(ctx), anchor, signer);
  return commit(ctx, async ({ tx, audit }) => {
    const head = await tx.getAuditHead();
    if (head.kind === null || head.kind === CHECKPOINT_KIND) return { status: 'unchanged' };
    const checked = await checkBeforeSigning(tx, anchor, checkedTo, signer);
    if (!checked.ok) return { status: 'refused', failure: checked };
    const unsigned = { seq: head.seq, hash: head.hash, at: tx.now, keyId: signer.keyId };
    const checkpoint = { ...unsigned, signature: signer.sign(checkpointStatement(unsigned)) };
    await audit({ kind: CHECKPOINT_KIND, actor: 'system:audit', subject: null, data: { ...checkpoint } });
    return { status: 'written', checkpoint };
  });
}

/** Creates the checkpoint writer; `signer` is loaded on first use. */
export function createAuditCheckpoints(ctx: AppContext, signer: () => AuditSigner): AuditCheckpoints {
  const file = auditHeadsPath(ctx.config);
  let anchor: Promise<SignedCheckpoint | null> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  async function writeNow(): Promise<CheckpointOutcome> {
    anchor ??= readAuditHeadsFile(file).then((heads) => heads.at(-1) ?? null);
    const outcome = await signHead(ctx, signer(), await anchor);
    if (outcome.status === 'written') {
      await appendAuditHead(file, outcome.checkpoint);
      anchor = Promise.resolve(outcome.checkpoint);
    } else if (outcome.status === 'refused') {
      ctx.log.error(
        { failure: outcome.failure, keyId: signer().keyId },
        'audit chain no longer matches its signed checkpoints (or another node signs with another key: give every node the same GATEHOUSE_AUDIT_KEY_FILE); not signing it',
      );
    }
    return outcome;
  }

  // One at a time, so the heads file gets checkpoints in the order they were signed.
  function write(): Promise<CheckpointOutcome> {
    const next = queue.then(writeNow);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    write,
    start() {
      if (timer !== null) return;
      timer = setInterval(() => {
        write().catch((err: unknown) => ctx.log.error({ err }, 'audit checkpoint failed'));
      }, ctx.config.auditCheckpointIntervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      // Signed once more on the way down, so the newest events do not stay unsigned while the server is stopped.
      await write().catch((err: unknown) => ctx.log.error({ err }, 'audit checkpoint at shutdown failed'));
    },
  };
}
