import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, payloadText } from './canonical-json.js';

describe('canonicalJson', () => {
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
});
