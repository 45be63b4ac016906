import type { KeyObject } from 'node:crypto';

/** Audit query, in seq order: `since` is inclusive, `until` exclusive (both epoch ms). */
export interface AuditFilter {
  kind?: string;
  actor?: string;
  subject?: string;
  fromSeq?: number;
  since?: number;
  until?: number;
  limit?: number;
  cursor?: string;
  /** `desc` pages newest first. @default 'asc' */
  order?: 'asc' | 'desc';
}

/** The last link of the audit chain. */
export interface AuditHead {
  seq: number;
  hash: string;
  kind: string | null;
}

/** Signs a retention start: gets the start's statement text, returns a signature and the key's id. */
export type StartSigner = (statement: { seq: number; hash: string; truncatedAt: number }) => {
  keyId: string;
  signature: string;
};

/** What `verifyAuditChain` checks signed checkpoints against. */
export interface AuditVerifyOptions {
  /** The audit key (PEM or KeyObject); without it checkpoints are not checked. */
  publicKey?: KeyObject | string;
  /** Checkpoints published outside the database (the heads file), in any order. */
  heads?: readonly SignedCheckpoint[];
}

/** A signed statement that the chain's link `seq` had hash `hash` at `at`. */
export interface SignedCheckpoint {
  seq: number;
  hash: string;
  at: number;
  keyId: string;
  /** Ed25519 over `checkpointStatement(…)`, base64. */
  signature: string;
}

/** The audit event as the caller gives it; seq, hashes and id are filled in by the store. */
export interface AuditInput {
  kind: string;
  actor: string;
  subject: string | null;
  data: Record<string, unknown>;
}

/** A verified-start marker left by retention truncation so the rest of the chain still verifies. */
export interface AuditCheckpoint {
  /** Sequence number of the last removed event: the remaining chain starts at `seq + 1`. */
  seq: number;
  /** Hash of the last removed event: the `prevHash` of the first remaining one. */
  hash: string;
  truncatedAt: number;
  /** How many events the latest truncation removed (all removals so far add up to `seq`). */
  removed: number;
  /** Which audit key signed this start (see `startStatement`); null when it was written unsigned. */
  keyId: string | null;
  /** Ed25519 signature of the start statement, base64; a start without one is not trusted by verify. */
  signature: string | null;
}

/**
 * Why a chain failed to verify: an edited row, a link that does not match, a missing or misplaced
 * seq; or a signed checkpoint that is forged (`bad_signature`), names a hash the chain no longer has
 * (`checkpoint_mismatch`), names a seq past the chain's end (`truncated`), or a retention start
 * that no key signed (`unsigned_start`).
 */
export type AuditFailure =
  | 'hash_mismatch'
  | 'broken_link'
  | 'gap'
  | 'reordered'
  | 'bad_signature'
  | 'checkpoint_mismatch'
  | 'truncated'
  | 'unsigned_start';

/** Where a signed checkpoint came from: an `audit.checkpoint` event, the published heads, or the retention start. */
export type CheckpointSource = 'chain' | 'heads' | 'start';

/** Result of checking the audit hash chain and, with a public key, its signed checkpoints. */
export type AuditVerification =
  | {
      ok: true;
      count: number;
      lastHash: string | null;
      /** Signed checkpoints whose signature and hash were checked (0 without a public key). */
      checkpoints: number;
      /** The newest checked checkpoint: everything up to its seq is covered by a signature. */
      lastCheckpoint: { seq: number; at: number } | null;
    }
  | {
      ok: false;
      seq: number;
      reason: AuditFailure;
      /** The first bad checkpoint, when a checkpoint is what failed. */
      checkpoint?: { seq: number; at: number; source: CheckpointSource };
    };
