import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_JSON_MAX_DEPTH,
  canonicalJson,
  payloadText,
  plainCanonicalJson,
} from './canonical-json.js';
import { GatehouseApiError } from './wire-error.js';

/** The definition: sorted copies with null prototypes, written by JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(source).sort()) {
    if (source[key] !== undefined) sorted[key] = sortedCopy(source[key]);
  }
  return sorted;
}

describe('canonicalJson', () => {
  it('writes what JSON.stringify writes of sorted copies, for any value', () => {
    const odd = fc.oneof(
      fc.date(),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant({ toJSON: () => 'replaced' }),
      fc.constant(new Map([['a', 1]])),
      fc.constant(Object.assign([] as unknown[], { 0: 1, 2: 3 })),
      fc.double(),
    );
    const values = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        odd,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
        fc.dictionary(fc.constantFrom('toJSON', '__proto__', 'b', 'a', '10', '7'), tie('value'), {
          maxKeys: 3,
        }),
      ),
    })).value;
    fc.assert(
      fc.property(values, (value) => {
        expect(canonicalJson(value)).toBe(JSON.stringify(sortedCopy(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 2 } })).toBe(
      canonicalJson({ a: { c: 2, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
  });

  it('round-trips any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('keeps __proto__ keys as data, so a hash covers them', () => {
    const withProto = JSON.parse('{"args":{"__proto__":{"x":1}}}');
    const other = JSON.parse('{"args":{"__proto__":{"x":2}}}');
    expect(canonicalJson(withProto)).toBe('{"args":{"__proto__":{"x":1}}}');
    expect(canonicalJson(withProto)).not.toBe(canonicalJson(other));
  });

  it('binds a payload to its tool and arguments', () => {
    expect(payloadText({ tool: 'rm', args: { path: 'a' } })).not.toBe(
      payloadText({ tool: 'rm', args: { path: 'b' } }),
    );
    expect(payloadText({ tool: 'rm' })).toBe('{"args":{},"operation":null,"tool":"rm"}');
  });

  it('refuses a value nested thousands of levels deep with VALIDATION_FAILED, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    let thrown: unknown;
    try {
      canonicalJson(deep);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatehouseApiError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      details: { limit: CANONICAL_JSON_MAX_DEPTH },
    });
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CANONICAL_JSON_MAX_DEPTH + 20 }),
        fc.boolean(),
        (depth, objects) => {
          let value: unknown = 'leaf';
          for (let i = 0; i < depth; i++) value = objects ? { k: value } : [value];
          if (depth <= CANONICAL_JSON_MAX_DEPTH) expect(JSON.parse(canonicalJson(value))).toEqual(value);
          else expect(() => canonicalJson(value)).toThrow(/nested deeper than/);
        },
      ),
    );
  });
});

describe('plainCanonicalJson', () => {
  it('writes the canonical text of the JSON round trip of any value built of JSON kinds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(plainCanonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
      }),
    );
  });

  it('gives nothing for a value JSON would turn into something else', () => {
    const toJson = { toJSON: () => 'worth' };
    for (const value of [{ at: new Date(0) }, [new Map()], { amount: toJson }, { run: () => 1 }, [1n]])
      expect(plainCanonicalJson(value)).toBeUndefined();
  });

  it('drops undefined members and writes undefined array items as null, as JSON does', () => {
    expect(plainCanonicalJson({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
  });
});
