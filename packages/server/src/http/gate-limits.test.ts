import fc from 'fast-check';
import { canonicalJson } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { assertGateArgsSize } from './gate-limits.js';

const bytes = (value: unknown) => Buffer.byteLength(canonicalJson(value), 'utf8');

// Any JSON, with strings of any Unicode (their UTF-8 bytes differ from their length).
const json = fc.jsonValue({ stringUnit: 'grapheme' });

describe('the gate argument cap', () => {
  it('measures args and context as the bytes of their canonical JSON, for any parsed body', () => {
    fc.assert(
      fc.property(json, fc.option(json, { nil: undefined }), (args, context) => {
        const body = JSON.parse(JSON.stringify({ args, context }));
        const size = bytes(body.args) + (body.context === undefined ? 0 : bytes(body.context));
        expect(() => assertGateArgsSize(body, size)).not.toThrow();
        expect(() => assertGateArgsSize(body, size - 1)).toThrow(/bytes of canonical JSON/);
      }),
      { numRuns: 500 },
    );
  });

  it('names args+context when together they are over the limit', () => {
    const body = { args: { text: 'a'.repeat(60) }, context: { note: 'b'.repeat(60) } };
    expect(() => assertGateArgsSize(body, 100)).toThrow(/^args\+context: 142 bytes/);
  });
});
