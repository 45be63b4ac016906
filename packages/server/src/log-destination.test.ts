import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogDestination } from './log-destination.js';

describe('createLogDestination', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('appends every line in order and drops none when the file takes them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-log-'));
    const file = join(dir, 'server.log');
    const destination = createLogDestination({ file });
    const lines = Array.from({ length: 5000 }, (_, i) => `{"n":${i}}\n`);
    for (const line of lines) destination.write(line);
    await destination.close();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    expect(destination.dropped()).toBe(0);
  });

  it('never throws on a full disk and counts every line it could not write', async () => {
    const destination = createLogDestination({ file: '/dev/full', retryDelayMs: 1 });
    for (let i = 0; i < 1000; i++) expect(() => destination.write(`{"n":${i}}\n`)).not.toThrow();
    await destination.close(2000);
    expect(destination.dropped()).toBe(1000);
  });

  it('drops lines past the queue limit instead of holding them', async () => {
    const destination = createLogDestination({ file: '/dev/full', maxQueuedBytes: 100, retryDelayMs: 1 });
    for (let i = 0; i < 100; i++) destination.write(`${'x'.repeat(40)}\n`);
    await destination.close(2000);
    expect(destination.dropped()).toBe(100);
  });

  it('drops what is written after close, so a reused descriptor never gets a line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-log-'));
    const file = join(dir, 'server.log');
    const destination = createLogDestination({ file });
    destination.write('before\n');
    await destination.close();
    destination.write('after\n');
    expect(readFileSync(file, 'utf8')).toBe('before\n');
    expect(destination.dropped()).toBe(1);
  });
});
