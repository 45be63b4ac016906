import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-body.js';

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce((deepest: number, child) => Math.max(deepest, depthOf(child)), 0);
}

describe('jsonDepth', () => {
  it('equals the nesting of the parsed value, whatever the strings hold and however it is spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.constantFrom(undefined, 2), (value, space) => {
        expect(jsonDepth(JSON.stringify(value, null, space))).toBe(depthOf(value));
      }),
    );
  });

  it('does not count brackets or escaped quotes inside strings', () => {
    expect(jsonDepth('{"a":"[[[{{{\\"]]]"}')).toBe(1);
    expect(jsonDepth('["\\\\",[1]]')).toBe(2);
  });

  it('stops early past the limit on very deep text', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonDepth(text, 64)).toBe(65);
    expect(jsonDepth(text)).toBe(1_000_000);
  });
});
