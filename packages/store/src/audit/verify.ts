import type { AuditEvent } from '@gatehouse/core';
import { invalidField } from '../repos/rows.js';
import type { AuditCheckpoint, AuditVerification } from '../types.js';
import { auditHash, GENESIS_HASH } from './hash.js';

/** Where a chain (or what is left of it after truncation) starts. */
export type ChainStart = Pick<AuditCheckpoint, 'seq' | 'hash'>;

/** After a jump ahead: was the missing event merely further down (reordered) or gone (gap)? */
async function missingOrMoved(rest: AsyncIterator<AuditEvent>, seq: number): Promise<AuditVerification> {
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    if (next.value.seq === seq) return { ok: false, seq, reason: 'reordered' };
  }
  return { ok: false, seq, reason: 'gap' };
}

async function* fromAny<T>(items: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T> {
  yield* items;
}

/**
 * Checks every link: seqs follow one another from the checkpoint (or 1), each `prevHash` is the
 * hash before it, and each hash matches the event's content. Works on an export alone.
 */
export async function verifyAuditChain(
  events: Iterable<AuditEvent> | AsyncIterable<AuditEvent>,
  checkpoint?: ChainStart | null,
): Promise<AuditVerification> {
  const iterator = fromAny(events);
  let expectedSeq = (checkpoint?.seq ?? 0) + 1;
  let previous = checkpoint?.hash ?? GENESIS_HASH;
  let count = 0;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const event = next.value;
    if (event.seq < expectedSeq) return { ok: false, seq: event.seq, reason: 'reordered' };
    if (event.seq > expectedSeq) return missingOrMoved(iterator, expectedSeq);
    if (event.prevHash !== previous) return { ok: false, seq: event.seq, reason: 'broken_link' };
    if (auditHash(previous, event) !== event.hash)
      return { ok: false, seq: event.seq, reason: 'hash_mismatch' };
    previous = event.hash;
    expectedSeq += 1;
    count += 1;
  }
  const lastHash = count > 0 || checkpoint ? previous : null;
  return { ok: true, count, lastHash };
}

async function* splitLines(
  source: string | Iterable<string> | AsyncIterable<string>,
): AsyncGenerator<string> {
  const chunks = typeof source === 'string' ? [source] : source;
  let rest = '';
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  yield rest;
}

function parseLine(line: string, lineNumber: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below with the line number
  }
  throw invalidField(`line ${lineNumber}`, 'is not a JSON object; an audit export has one event per line');
}

async function* exportRecords(
  source: string | Iterable<string> | AsyncIterable<string>,
): AsyncGenerator<{ record: Record<string, unknown>; line: number }> {
  let line = 0;
  for await (const text of splitLines(source)) {
    line += 1;
    if (text.trim() !== '') yield { record: parseLine(text, line), line };
  }
}

function asEvent(record: Record<string, unknown>, line: number): AuditEvent {
  if (
    typeof record.seq !== 'number' ||
    typeof record.hash !== 'string' ||
    typeof record.prevHash !== 'string'
  ) {
    throw invalidField(`line ${line}`, 'is not an audit event (seq, prevHash and hash are required)');
  }
  return record as unknown as AuditEvent;
}

function isCheckpoint(value: unknown): value is ChainStart {
  const candidate = value as Partial<ChainStart> | null;
  return typeof candidate?.seq === 'number' && typeof candidate.hash === 'string';
}

/**
 * Verifies a JSON Lines audit export: one event per line, the first line optionally
 * `{"checkpoint": {seq, hash, …}}` left by retention truncation.
 */
export async function verifyAuditExport(
  source: string | Iterable<string> | AsyncIterable<string>,
): Promise<AuditVerification> {
  const records = exportRecords(source);
  const first = await records.next();
  if (first.done) return verifyAuditChain([]);
  const head = first.value.record;
  const checkpoint = 'checkpoint' in head && isCheckpoint(head.checkpoint) ? head.checkpoint : null;
  async function* events(): AsyncGenerator<AuditEvent> {
    if (checkpoint === null) yield asEvent(head, first.value?.line ?? 1);
    for await (const { record, line } of records) yield asEvent(record, line);
  }
  return verifyAuditChain(events(), checkpoint);
}
