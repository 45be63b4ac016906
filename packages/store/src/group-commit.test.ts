import { describe, expect, it } from 'vitest';
import type { TxContext } from './db/schema.js';
import { asyncContextFramesOn, createGroupCommit, type QueuedUnit } from './group-commit.js';

/** A batcher whose batches only record their size; each settles its units with their index. */
function recordingBatcher(options: { maxBatch?: number; holdMs?: number } = {}) {
  const batches: number[] = [];
  const commits = createGroupCommit({
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
    async execute(units: QueuedUnit[]) {
      batches.push(units.length);
      if (options.holdMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      units.forEach((unit, i) => {
        unit.resolve(i);
      });
    },
  });
  const enqueue = () => commits.enqueue(async (_ctx: TxContext) => 0);
  return { batches, commits, enqueue };
}

describe('group commit', () => {
  it('runs 50 units queued in the same turn as one batch, so they share one commit', async () => {
    const { batches, enqueue } = recordingBatcher();
    await Promise.all(Array.from({ length: 50 }, enqueue));
    expect(batches).toEqual([50]);
  });

  it('gathers what arrives while a batch commits into the next batch', async () => {
    const { batches, enqueue } = recordingBatcher({ holdMs: 20 });
    const first = Promise.all(Array.from({ length: 5 }, enqueue));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = Promise.all(Array.from({ length: 30 }, enqueue));
    await Promise.all([first, second]);
    expect(batches).toEqual([5, 30]);
  });

  it('splits a queue longer than maxBatch', async () => {
    const { batches, enqueue } = recordingBatcher({ maxBatch: 16 });
    await Promise.all(Array.from({ length: 40 }, enqueue));
    expect(batches).toEqual([16, 16, 8]);
  });
});

describe('asyncContextFramesOn', () => {
  it('is on from Node.js 24 and off before, unless a flag says otherwise', () => {
    expect(asyncContextFramesOn('20.19.0', [])).toBe(false);
    expect(asyncContextFramesOn('22.14.0', [])).toBe(false);
    expect(asyncContextFramesOn('24.0.0', [])).toBe(true);
    expect(asyncContextFramesOn('26.10.0', [''])).toBe(true);
    expect(asyncContextFramesOn('22.14.0', ['--experimental-async-context-frame'])).toBe(true);
    expect(asyncContextFramesOn('26.10.0', ['--no-async-context-frame'])).toBe(false);
  });
});
