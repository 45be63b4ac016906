import { describe, expect, it } from 'vitest';
import { createRandomIds } from './ids.js';

describe('createRandomIds', () => {
  it('makes ids that are unique and well-formed across many refills of its random pool', () => {
    const ids = createRandomIds();
    const made = Array.from({ length: 20_000 }, () => ids.next('gate'));
    expect(new Set(made).size).toBe(made.length);
    for (const id of made) expect(id).toMatch(/^gate_[0-9a-z]{9}[0-9A-Za-z]{14}$/);
  });

  it('gives separate generators separate randomness', () => {
    const random = (id: string) => id.slice(-14);
    const first = Array.from({ length: 1000 }, () => createRandomIds().next('run')).map(random);
    expect(new Set(first).size).toBe(first.length);
  });
});
