import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { canonicalJson } from 'gatehouse-hitl-core';
import type { AuditCheckpoint, SignedCheckpoint } from '../types.js';

/** The audit kind of a signed checkpoint event; its data is a `SignedCheckpoint`. */
export const CHECKPOINT_KIND = 'audit.checkpoint';

/** The exact text a checkpoint's signature covers: canonical JSON, keys sorted, no spaces. */
export function checkpointStatement(checkpoint: Omit<SignedCheckpoint, 'signature'>): string {
  const { seq, hash, at, keyId } = checkpoint;
  return canonicalJson({ purpose: 'gatehouse.audit.checkpoint', seq, hash, at, keyId });
}

/** The text a retention start's signature covers; a different purpose, so a checkpoint's cannot stand in for it. */
export function startStatement(start: {
  seq: number;
  hash: string;
  truncatedAt: number;
  keyId: string;
}): string {
  const { seq, hash, truncatedAt, keyId } = start;
  return canonicalJson({ purpose: 'gatehouse.audit.start', seq, hash, truncatedAt, keyId });
}

/** A short, stable id of a public key: the first 16 hex digits of sha256 over its SPKI DER bytes. */
export function auditKeyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** A PEM text (or a KeyObject) as a public KeyObject. */
export function toPublicKey(key: KeyObject | string): KeyObject {
  return typeof key === 'string' ? createPublicKey(key) : key;
}

function signatureHolds(key: KeyObject, text: string, signature: unknown): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  try {
    return verify(null, Buffer.from(text), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** True when `checkpoint` was signed by `key` as it stands. */
export function isCheckpointSigned(key: KeyObject, checkpoint: SignedCheckpoint): boolean {
  return signatureHolds(key, checkpointStatement(checkpoint), checkpoint.signature);
}

/** True when the retention start was signed by `key`. */
export function isStartSigned(key: KeyObject, start: AuditCheckpoint): boolean {
  if (start.keyId === null) return false;
  const text = startStatement({ ...start, keyId: start.keyId });
  return signatureHolds(key, text, start.signature);
}

/** Reads a checkpoint's fields from untrusted JSON (an event's data, a heads line); null when any is missing. */
export function asSignedCheckpoint(value: unknown): SignedCheckpoint | null {
  const c = value as Partial<SignedCheckpoint> | null;
  if (c === null || typeof c !== 'object') return null;
  if (typeof c.seq !== 'number' || typeof c.hash !== 'string' || typeof c.at !== 'number') return null;
  if (typeof c.keyId !== 'string' || typeof c.signature !== 'string') return null;
  return { seq: c.seq, hash: c.hash, at: c.at, keyId: c.keyId, signature: c.signature };
}
