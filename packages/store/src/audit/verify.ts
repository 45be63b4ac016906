import type { KeyObject } from 'node:crypto';
import type { AuditEvent } from 'gatehouse-hitl-core';
import type { AuditCheckpoint, AuditVerification, CheckpointSource, SignedCheckpoint } from '../types.js';
import {
  asSignedCheckpoint,
  CHECKPOINT_KIND,
  isCheckpointSigned,
  isStartSigned,
  toPublicKey,
} from './checkpoint.js';
import { auditHash, GENESIS_HASH } from './hash.js';

/** Where a chain (or what is left of it after truncation) starts. */
export type ChainStart = Pick<AuditCheckpoint, 'seq' | 'hash'> &
  Partial<Pick<AuditCheckpoint, 'truncatedAt' | 'keyId' | 'signature'>>;

/** What to check a chain against; with no public key only the links are checked. */
export interface ChainCheckOptions {
  /** The retention start (the export's `{"checkpoint": …}` line); the chain begins at `seq + 1`. */
  start?: ChainStart | null;
  /** The audit key (PEM or KeyObject) that signed the checkpoints. */
  publicKey?: KeyObject | string | undefined;
  /** Checkpoints published outside the database (the heads file), in any order. */
  heads?: readonly SignedCheckpoint[] | undefined;
  /** The caller vouches for the start (a checkpoint it signed itself), so its signature is not checked. */
  trustStart?: boolean;
}

type Failure = Extract<AuditVerification, { ok: false }>;

function checkpointFailure(
  seq: number,
  reason: Failure['reason'],
  checkpoint: { seq: number; at: number },
  source: CheckpointSource,
): Failure {
  return { ok: false, seq, reason, checkpoint: { seq: checkpoint.seq, at: checkpoint.at, source } };
}

/** Signed checkpoints met so far; each check either counts one or returns the failure. */
function createCheckpointLedger(key: KeyObject | null, heads: readonly SignedCheckpoint[]) {
  const pending = [...heads].sort((a, b) => a.seq - b.seq);
  let index = 0;
  let checked = 0;
  let last: { seq: number; at: number } | null = null;
  const count = (c: { seq: number; at: number }) => {
    checked += 1;
    if (last === null || c.seq >= last.seq) last = { seq: c.seq, at: c.at };
  };
  return {
    /** The heads up to `seq` must be signed and, at `seq` itself, name `hash`. */
    headsUpTo(seq: number, hash: string | null): Failure | null {
      if (key === null) return null;
      for (; index < pending.length && (pending[index]?.seq ?? 0) <= seq; index += 1) {
        const head = pending[index] as SignedCheckpoint;
        if (!isCheckpointSigned(key, head))
          return checkpointFailure(head.seq, 'bad_signature', head, 'heads');
        if (head.seq === seq && hash !== null && head.hash !== hash)
          return checkpointFailure(head.seq, 'checkpoint_mismatch', head, 'heads');
        if (head.seq === seq) count(head);
      }
      return null;
    },
    /** A checkpoint event covers the link just before it. */
    chainEvent(event: AuditEvent): Failure | null {
      if (key === null) return null;
      const claimed = asSignedCheckpoint(event.data);
      if (claimed === null || !isCheckpointSigned(key, claimed))
        return checkpointFailure(event.seq, 'bad_signature', claimed ?? event, 'chain');
      if (claimed.seq !== event.seq - 1 || claimed.hash !== event.prevHash)
        return checkpointFailure(event.seq, 'checkpoint_mismatch', claimed, 'chain');
      count(claimed);
      return null;
    },
    /** Heads past the chain's end: the tail they name is gone. */
    beyond(): Failure | null {
      const next = pending[index];
      if (key === null || next === undefined) return null;
      if (!isCheckpointSigned(key, next)) return checkpointFailure(next.seq, 'bad_signature', next, 'heads');
      return checkpointFailure(next.seq, 'truncated', next, 'heads');
    },
    startCounted: (start: ChainStart) => count({ seq: start.seq, at: start.truncatedAt ?? 0 }),
    summary: () => ({ checkpoints: checked, lastCheckpoint: last }),
  };
}

type Ledger = ReturnType<typeof createCheckpointLedger>;

function checkStart(key: KeyObject | null, start: ChainStart | null, ledger: Ledger): Failure | null {
  if (key === null || start === null) return null;
  const at = { seq: start.seq, at: start.truncatedAt ?? 0 };
  if (start.signature === undefined || start.signature === null || start.keyId == null)
    return checkpointFailure(start.seq, 'unsigned_start', at, 'start');
  const full = { truncatedAt: 0, removed: 0, ...start, keyId: start.keyId, signature: start.signature };
  if (!isStartSigned(key, full)) return checkpointFailure(start.seq, 'bad_signature', at, 'start');
  ledger.startCounted(start);
  return null;
}

function checkEvent(event: AuditEvent, expectedSeq: number, previous: string): Failure | 'moved' | null {
  if (event.seq < expectedSeq) return { ok: false, seq: event.seq, reason: 'reordered' };
  if (event.seq > expectedSeq) return 'moved';
  if (event.prevHash !== previous) return { ok: false, seq: event.seq, reason: 'broken_link' };
  if (auditHash(previous, event) !== event.hash)
    return { ok: false, seq: event.seq, reason: 'hash_mismatch' };
  return null;
}

/** Checks one event after another; `push` answers a failure as soon as one is certain. */
export interface ChainWalker {
  push(event: AuditEvent): AuditVerification | null;
  finish(): AuditVerification;
}

/** The walk behind `verifyAuditChain`, fed one event at a time (an export's lines feed it in batches). */
export function createChainWalker(options: ChainCheckOptions = {}): ChainWalker {
  const start = options.start ?? null;
  const key = options.publicKey === undefined ? null : toPublicKey(options.publicKey);
  const ledger = createCheckpointLedger(key, options.heads ?? []);
  let expectedSeq = (start?.seq ?? 0) + 1;
  let previous = start?.hash ?? GENESIS_HASH;
  let count = 0;
  // After a jump ahead: is the skipped seq merely further down (reordered) or gone (gap)?
  let missing: number | null = null;
  const opening =
    (options.trustStart ? null : checkStart(key, start, ledger)) ??
    ledger.headsUpTo(expectedSeq - 1, start?.hash ?? null);
  return {
    push(event) {
      if (opening) return opening;
      if (missing !== null)
        return event.seq === missing ? { ok: false, seq: missing, reason: 'reordered' } : null;
      const wrong = checkEvent(event, expectedSeq, previous);
      if (wrong === 'moved') {
        missing = expectedSeq;
        return null;
      }
      const bad =
        wrong ??
        (event.kind === CHECKPOINT_KIND ? ledger.chainEvent(event) : null) ??
        ledger.headsUpTo(event.seq, event.hash);
      if (bad) return bad;
      previous = event.hash;
      expectedSeq += 1;
      count += 1;
      return null;
    },
    finish() {
      if (opening) return opening;
      if (missing !== null) return { ok: false, seq: missing, reason: 'gap' };
      const cut = ledger.beyond();
      if (cut) return cut;
      const lastHash = count > 0 || start ? previous : null;
      return { ok: true, count, lastHash, ...ledger.summary() };
    },
  };
}

/**
 * Checks every link: seqs follow one another from the start (or 1), each `prevHash` is the hash
 * before it, and each hash matches the event's content. With a public key also: the start is
 * signed, each `audit.checkpoint` event and each published head is signed and names the hash the
 * chain has at its seq, and no head lies past the chain's end. Works on an export alone.
 */
export async function verifyAuditChain(
  events: Iterable<AuditEvent> | AsyncIterable<AuditEvent>,
  options: ChainCheckOptions = {},
): Promise<AuditVerification> {
  const walker = createChainWalker(options);
  if (Symbol.asyncIterator in events) {
    for await (const event of events) {
      const failure = walker.push(event);
      if (failure) return failure;
    }
  } else {
    for (const event of events) {
      const failure = walker.push(event);
      if (failure) return failure;
    }
  }
  return walker.finish();
}
