import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANONICAL_JSON_MAX_DEPTH, canonicalJson } from './canonical-json.js';
import { canonicalJsonV2 } from './canonical-json-v2.js';

interface Vector {
  label: string;
  input: string;
  output?: string;
  error?: string;
}

/** The vectors every implementation of a version is held to (the Python SDK's tests read v1's too). */
const vectors = (version: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../test-vectors/canonical-json-${version}.json`, import.meta.url), 'utf8'),
    ) as { cases: Vector[] }
  ).cases;

function answer(write: (value: unknown) => string, input: string): { output: string } | { error: string } {
  try {
    return { output: write(JSON.parse(input)) };
  } catch (error) {
    return { error: (error as { code: string }).code };
  }
}

describe('the canonical JSON vectors', () => {
  it.each(vectors('v1'))('v1: $label', ({ input, output, error }) => {
    expect(answer(canonicalJson, input)).toEqual(output === undefined ? { error } : { output });
  });

  it.each(vectors('v2'))('v2: $label', ({ input, output, error }) => {
    expect(answer(canonicalJsonV2, input)).toEqual(output === undefined ? { error } : { output });
  });
});

const wellFormed = fc.jsonValue({ stringUnit: 'grapheme' });
const hasIndexKey = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  (Array.isArray(value)
    ? value.some(hasIndexKey)
    : Object.entries(value).some(([key, child]) => /^(0|[1-9]\d*)$/.test(key) || hasIndexKey(child)));

describe('canonicalJsonV2', () => {
  it('sorts "10" before "7", as RFC 8785 sorts every key as text', () => {
    expect(canonicalJsonV2({ 10: 1, 7: 2 })).toBe('{"10":1,"7":2}');
    expect(canonicalJson({ 10: 1, 7: 2 })).toBe('{"7":2,"10":1}');
  });

  it('round-trips any JSON value', () => {
    fc.assert(
      fc.property(wellFormed, (value) => {
        expect(JSON.parse(canonicalJsonV2(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('writes what v1 writes for values without array-index keys', () => {
    fc.assert(
      fc.property(
        wellFormed.filter((value) => !hasIndexKey(value)),
        (value) => {
          expect(canonicalJsonV2(value)).toBe(canonicalJson(value));
        },
      ),
    );
  });

  it('leaves out object members that are undefined', () => {
    expect(canonicalJsonV2({ b: undefined, a: null })).toBe('{"a":null}');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['undefined in an array', [undefined]],
    ['a bigint', { n: 1n }],
    ['a function', { f: () => 1 }],
    ['a Date', { at: new Date(0) }],
    ['a Map', new Map()],
    ['undefined', undefined],
  ])('refuses %s with VALIDATION_FAILED', (_name, value) => {
    expect(() => canonicalJsonV2(value)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    const nested = (depth: number) => {
      let value: unknown = 'leaf';
      for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
      return value;
    };
    expect(JSON.parse(canonicalJsonV2(nested(CANONICAL_JSON_MAX_DEPTH)))).toEqual(
      nested(CANONICAL_JSON_MAX_DEPTH),
    );
    expect(() => canonicalJsonV2(nested(CANONICAL_JSON_MAX_DEPTH + 1))).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { limit: CANONICAL_JSON_MAX_DEPTH } }),
    );
  });
});
