import type { AuditEvent } from 'gatehouse-hitl-core';
import { invalidField } from '../repos/rows.js';
import type { AuditVerification, SignedCheckpoint } from '../types.js';
import { asSignedCheckpoint } from './checkpoint.js';
import { type ChainCheckOptions, type ChainStart, type ChainWalker, createChainWalker } from './verify.js';

/** Text as one string, or as chunks that may split lines anywhere (a file stream). */
export type TextSource = string | Iterable<string> | AsyncIterable<string>;

async function* splitLines(source: TextSource): AsyncGenerator<string> {
  const chunks = typeof source === 'string' ? [source] : source;
  let rest = '';
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  yield rest;
}

function parseLine(line: string, lineNumber: number, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(line);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below with the line number
  }
  throw invalidField(`line ${lineNumber}`, `is not a JSON object; ${what}`);
}

async function* jsonLines(
  source: TextSource,
  what: string,
): AsyncGenerator<{ record: Record<string, unknown>; line: number }> {
  let line = 0;
  for await (const text of splitLines(source)) {
    line += 1;
    if (text.trim() !== '') yield { record: parseLine(text, line, what), line };
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

function isStart(value: unknown): value is ChainStart {
  const candidate = value as Partial<ChainStart> | null;
  return typeof candidate?.seq === 'number' && typeof candidate.hash === 'string';
}

/** Feeds an export's lines to a walker: the first may be the retention start, every other is an event. */
function createExportReader(options: Omit<ChainCheckOptions, 'start'>) {
  let walker: ChainWalker | null = null;
  let line = 0;
  return {
    /** Returns the first failure, or null to go on. */
    feed(text: string): AuditVerification | null {
      line += 1;
      if (text.trim() === '') return null;
      const record = parseLine(text, line, 'an audit export has one event per line');
      if (walker === null) {
        const start = 'checkpoint' in record && isStart(record.checkpoint) ? record.checkpoint : null;
        walker = createChainWalker({ ...options, start });
        if (start !== null) return null;
      }
      return walker.push(asEvent(record, line));
    },
    finish: () => (walker ?? createChainWalker(options)).finish(),
  };
}

/**
 * Verifies a JSON Lines audit export: one event per line, the first line optionally
 * `{"checkpoint": {seq, hash, …}}` left by retention truncation. With `publicKey` the signed
 * checkpoints are checked too, and against `heads` when given (see `readAuditHeads`).
 */
export async function verifyAuditExport(
  source: TextSource,
  options: Omit<ChainCheckOptions, 'start'> = {},
): Promise<AuditVerification> {
  const reader = createExportReader(options);
  const chunks = typeof source === 'string' ? [source] : source;
  let rest = '';
  // Lines of one chunk are checked in one synchronous pass: a million awaits would cost more than the hashing.
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const text of lines) {
      const failure = reader.feed(text);
      if (failure) return failure;
    }
  }
  return reader.feed(rest) ?? reader.finish();
}

/** Reads a heads file (JSON Lines, one signed checkpoint per line), naming the line that is not one. */
export async function readAuditHeads(source: TextSource): Promise<SignedCheckpoint[]> {
  const heads: SignedCheckpoint[] = [];
  for await (const { record, line } of jsonLines(source, 'a heads file has one checkpoint per line')) {
    const checkpoint = asSignedCheckpoint(record);
    if (checkpoint === null)
      throw invalidField(`line ${line}`, 'is not a signed checkpoint (seq, hash, at, keyId and signature)');
    heads.push(checkpoint);
  }
  return heads;
}
