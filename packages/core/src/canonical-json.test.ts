import { describe, expect, it } from 'vitest';
import { CANONICAL_JSON_MAX_DEPTH, canonicalJson, payloadText } from './canonical-json.js';
import { GatehouseError } from './errors.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
}

describe("core's canonical JSON", () => {
  it.each([
    ['canonicalJson', () => canonicalJson(nested(CANONICAL_JSON_MAX_DEPTH + 1))],
    ['payloadText', () => payloadText({ tool: 't', args: nested(CANONICAL_JSON_MAX_DEPTH) })],
  ])(
    '%s refuses a value nested too deep with a GatehouseError, so the server answers 400',
    (_name, write) => {
      let thrown: unknown;
      try {
        write();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(GatehouseError);
      expect(thrown).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { limit: CANONICAL_JSON_MAX_DEPTH },
      });
    },
  );

  it('is the protocol text', () => {
    expect(canonicalJson({ b: 1, a: [2] })).toBe('{"a":[2],"b":1}');
  });
});
