import { hash, randomBytes } from 'node:crypto';
import { type AuditEvent, canonicalJson } from 'gatehouse-hitl-core';

/** The `prevHash` of the very first event of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an audit hash covers: everything but the hashes themselves. */
export type HashedAuditFields = Pick<AuditEvent, 'seq' | 'id' | 'at' | 'kind' | 'actor' | 'subject' | 'data'>;

/**
 * The canonical JSON of the hashed fields, keys in sorted order, written out directly: the same
 * text as `canonicalJson` of them, without sorting seven keys for every event of a long chain.
 */
function hashedBody(event: HashedAuditFields): string {
  const { seq, id, at, kind, actor, subject, data } = event;
  if ([seq, id, at, kind, actor, subject, data].includes(undefined as never))
    return canonicalJson({ seq, id, at, kind, actor, subject, data });
  const text = JSON.stringify;
  return `{"actor":${text(actor)},"at":${text(at)},"data":${canonicalJson(data)},"id":${text(id)},"kind":${text(kind)},"seq":${text(seq)},"subject":${text(subject)}}`;
}

/**
 * sha256(prevHash + canonical JSON of the event), hex: one link of the audit chain. One-shot
 * `hash()` over the joined text: a Hash object per event costs more than the hashing itself.
 */
export function auditHash(prevHash: string, event: HashedAuditFields): string {
  return hash('sha256', prevHash + hashedBody(event), 'hex');
}

const ID_BYTES = 10;
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** A fresh audit event id, `evt_` and 20 hex digits. */
export function newAuditEventId(): string {
  // One call to the random source per 256 ids: it costs far more than slicing a buffer.
  if (poolOffset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    poolOffset = 0;
  }
  const id = pool.toString('hex', poolOffset, poolOffset + ID_BYTES);
  poolOffset += ID_BYTES;
  return `evt_${id}`;
}
