import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readAuditHeads, type SignedCheckpoint } from 'gatehouse-hitl-store';
import type { ServerConfig } from '../../config.js';

/** Where signed checkpoints are published: the configured file, else `audit-heads.jsonl` in the data directory. */
export function auditHeadsPath(config: ServerConfig): string {
  return config.auditHeadsFile ?? join(config.dataDir, 'audit-heads.jsonl');
}

/** Appends one checkpoint as a JSON line and waits until it is on disk. */
export async function appendAuditHead(file: string, checkpoint: SignedCheckpoint): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'a', 0o644);
  try {
    await handle.write(`${JSON.stringify(checkpoint)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Every checkpoint published so far; none when the file does not exist yet. */
export async function readAuditHeadsFile(file: string): Promise<SignedCheckpoint[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return readAuditHeads(text);
}
