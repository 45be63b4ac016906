import { createHash, randomBytes } from 'node:crypto';
import { type AuditEvent, canonicalJson } from '@gatehouse/core';

/** The `prevHash` of the very first event of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an audit hash covers: everything but the hashes themselves. */
export type HashedAuditFields = Pick<AuditEvent, 'seq' | 'id' | 'at' | 'kind' | 'actor' | 'subject' | 'data'>;

/** sha256(prevHash + canonical JSON of the event), hex: one link of the audit chain. */
export function auditHash(prevHash: string, event: HashedAuditFields): string {
  const body = canonicalJson({
    seq: event.seq,
    id: event.id,
    at: event.at,
    kind: event.kind,
    actor: event.actor,
    subject: event.subject,
    data: event.data,
  });
  return createHash('sha256').update(prevHash).update(body).digest('hex');
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
