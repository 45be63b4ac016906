import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A tool call that is waiting for a person: the idempotency key and context its request was sent
 * with, so the retry of the same call sends the identical request and gets the same gate back.
 */
export interface PendingCall {
  key: string;
  gateId: string | null;
  context: Record<string, unknown>;
  createdAt: number;
}

/** Remembers pending calls between hook runs, one small file per call in a private directory. */
export interface Ledger {
  read(callId: string): PendingCall | null;
  /** False when it could not be written (the retry then asks again instead of finding the gate). */
  write(callId: string, call: PendingCall): boolean;
  remove(callId: string): void;
}

/**
 * A 64-bit fingerprint of `text` (two 32-bit multiplicative hashes), without loading node:crypto.
 * It only names files and keys: the server compares whole requests, so a collision costs a retry.
 */
export function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

const KEEP_MS = 7 * 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

function parse(text: string): PendingCall | null {
  const value = JSON.parse(text) as Partial<PendingCall>;
  const context = value.context;
  if (typeof value.key !== 'string' || !KEY_PATTERN.test(value.key)) return null;
  if (context === null || typeof context !== 'object' || Array.isArray(context)) return null;
  return {
    key: value.key,
    gateId: typeof value.gateId === 'string' ? value.gateId : null,
    context,
    createdAt: typeof value.createdAt === 'number' ? value.createdAt : 0,
  };
}

function prune(dir: string, now: number): void {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (now - statSync(file).mtimeMs > KEEP_MS) rmSync(file, { force: true });
  }
}

/** A ledger in `dir` (created with mode 0700 on the first write). */
export function createLedger(dir: string): Ledger {
  const fileOf = (callId: string) => join(dir, `${callId}.json`);
  return {
    read(callId) {
      try {
        return parse(readFileSync(fileOf(callId), 'utf8'));
      } catch {
        return null;
      }
    },
    write(callId, call) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = fileOf(callId);
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, `${JSON.stringify(call)}\n`, { mode: 0o600 });
        renameSync(temp, file);
      } catch {
        return false;
      }
      try {
        prune(dir, call.createdAt);
      } catch {
        // an old file that cannot be removed now goes on a later write
      }
      return true;
    },
    remove(callId) {
      try {
        rmSync(fileOf(callId), { force: true });
      } catch {
        // a leftover file only makes the next identical call send its old request once more
      }
    },
  };
}
