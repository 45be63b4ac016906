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

/** A fresh audit event id, `evt_` and 20 hex digits. */
export function newAuditEventId(): string {
  return `evt_${randomBytes(10).toString('hex')}`;
}
