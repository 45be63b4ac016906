import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPatternId, PATTERN_IDS } from './pattern-ids.js';

/** Every `pattern: '…'` literal in the package's sources. */
function patternsInSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return patternsInSources(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/(?:pattern|id): '([a-z]+\.[a-z_]+)'/g)].map((match) => match[1] as string);
  });
}

describe('pattern ids', () => {
  it('lists every pattern id the analysis can put on a finding', () => {
    const found = patternsInSources(new URL('.', import.meta.url).pathname);
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((id) => !isPatternId(id))).toEqual([]);
  });

  it('knows no id twice and refuses an id it does not list', () => {
    expect(new Set(PATTERN_IDS).size).toBe(PATTERN_IDS.length);
    expect(isPatternId('lazy.todo_left')).toBe(false);
  });
});
