import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { contractCounts } from './contract-counts.mjs';

const ceilings = JSON.parse(
  readFileSync(new URL('./contract-counts.json', import.meta.url), 'utf8'),
) as Record<string, number>;

describe('the contract counts', () => {
  const { cycles: _cycles, ...counts } = contractCounts() as Record<string, number> & { cycles: unknown };

  it.each(Object.keys(ceilings))('%s does not rise above its ceiling', (name) => {
    expect(counts[name]).toBeLessThanOrEqual(ceilings[name] as number);
  });

  it('has a ceiling for every count', () => {
    expect(Object.keys(counts).sort()).toEqual(Object.keys(ceilings).sort());
  });
});
