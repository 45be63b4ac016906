import type { DiffLine } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { splitRows } from './split-rows.js';

const line = (kind: DiffLine['kind'], oldLine: number | null, newLine: number | null): DiffLine => ({
  kind,
  oldLine,
  newLine,
  text: `${kind}${oldLine ?? ''}/${newLine ?? ''}`,
});

describe('splitRows', () => {
  it('pairs each run of removals with the additions after it, and context on both sides', () => {
    const context = line('context', 1, 1);
    const del1 = line('del', 2, null);
    const del2 = line('del', 3, null);
    const add1 = line('add', null, 2);
    const tail = line('context', 4, 3);
    const add2 = line('add', null, 4);
    expect(splitRows([context, del1, del2, add1, tail, add2])).toEqual([
      { old: context, new: context },
      { old: del1, new: add1 },
      { old: del2, new: null },
      { old: tail, new: tail },
      { old: null, new: add2 },
    ]);
  });
});
