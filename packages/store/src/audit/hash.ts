import { hash, randomInt } from 'node:crypto';
import { type AuditEvent, canonicalJson } from 'gatehouse-hitl-core';

/** The `prevHash` of the very first event of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an audit hash covers: everything but the hashes themselves. */
export type HashedAuditFields = Pick<AuditEvent, 'seq' | 'id' | 'at' | 'kind' | 'actor' | 'subject' | 'data'>;

/**
 * The canonical JSON of the hashed fields, keys in sorted order, written out directly: the same
 * text as `canonicalJson` of them, without sorting seven keys for every event of a long chain.
 */
function hashedBody(event: HashedAuditFields, dataText: string | undefined): string {
  const { seq, id, at, kind, actor, subject, data } = event;
  if ([seq, id, at, kind, actor, subject, data].includes(undefined as never))
    return canonicalJson({ seq, id, at, kind, actor, subject, data });
  const text = JSON.stringify;
  return `{"actor":${text(actor)},"at":${text(at)},"data":${dataText ?? canonicalJson(data)},"id":${text(id)},"kind":${text(kind)},"seq":${text(seq)},"subject":${text(subject)}}`;
}

/**
 * sha256(prevHash + canonical JSON of the event), hex: one link of the audit chain. One-shot
 * `hash()` over the joined text: a Hash object per event costs more than the hashing itself.
 * `dataText` is the canonical JSON of `event.data` when the caller has it already.
 */
export function auditHash(prevHash: string, event: HashedAuditFields, dataText?: string): string {
  return hash('sha256', prevHash + hashedBody(event, dataText), 'hex');
}

/** Hex digits of an id's time (milliseconds: enough until the year 2527) and of its counter. */
const TIME_DIGITS = 11;
const COUNTER_DIGITS = 9;
const COUNTER_RANGE = 16 ** COUNTER_DIGITS;
// From a random start, so two nodes writing in the same millisecond do not count alike.
let counter = randomInt(COUNTER_RANGE);

/**
 * A fresh audit event id, `evt_` and 20 hex digits: the time `now` first, then a counter. Ids made
 * one after another sort together, so each commit adds to the end of the id index instead of
 * touching a page of it per event (random ids cost a page written, and at scale a page read, each).
 */
export function newAuditEventId(now: number): string {
  counter = (counter + 1) % COUNTER_RANGE;
  const time = Math.max(0, Math.floor(now)).toString(16).padStart(TIME_DIGITS, '0').slice(-TIME_DIGITS);
  return `evt_${time}${counter.toString(16).padStart(COUNTER_DIGITS, '0')}`;
}
