import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { payloadText as serverPayloadText } from 'gatehouse-hitl-protocol/rules';
import { describe, expect, it } from 'vitest';
import { canonicalJson, payloadHash, payloadText } from './payload.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('payload hash', () => {
  it('gives the same text as the server for any JSON arguments', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (tool, operation, args) => {
          expect(payloadText({ tool, operation, args })).toBe(serverPayloadText({ tool, operation, args }));
        },
      ),
    );
  });

  it('is the SHA-256 hex of the canonical text', async () => {
    const action = { tool: 'delete_file', args: { path: 'build/', recursive: true } };
    expect(await payloadHash(action)).toBe(sha256(serverPayloadText(action)));
    expect(await payloadHash({ operation: 'ünïcode ✓ 🚀' })).toBe(
      sha256(serverPayloadText({ operation: 'ünïcode ✓ 🚀' })),
    );
  });

  it('covers a __proto__ key in the arguments, as core does', async () => {
    const args = JSON.parse('{"path":"a","__proto__":{"admin":true}}') as Record<string, unknown>;
    expect(payloadText({ tool: 't', args })).toBe(serverPayloadText({ tool: 't', args }));
    expect(await payloadHash({ tool: 't', args })).not.toBe(
      await payloadHash({ tool: 't', args: { path: 'a' } }),
    );
  });

  it('does not depend on key order', async () => {
    const a = await payloadHash({ tool: 't', args: { b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } } });
    const b = await payloadHash({ tool: 't', args: { a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 } });
    expect(a).toBe(b);
  });

  it('changes when any argument changes', async () => {
    const base = await payloadHash({ tool: 'write_file', args: { path: 'a.txt', content: 'x' } });
    expect(await payloadHash({ tool: 'write_file', args: { path: 'a.txt', content: 'y' } })).not.toBe(base);
    expect(await payloadHash({ tool: 'edit_file', args: { path: 'a.txt', content: 'x' } })).not.toBe(base);
    expect(await payloadHash({ operation: 'write_file', args: { path: 'a.txt', content: 'x' } })).not.toBe(
      base,
    );
  });

  it('hashes values as they travel: dates as ISO strings, undefined fields dropped', () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    expect(payloadText({ tool: 't', args: { at, gone: undefined } })).toBe(
      canonicalJson({ tool: 't', operation: null, args: { at: at.toISOString() } }),
    );
  });

  it('treats missing arguments as an empty object, like the server', () => {
    expect(payloadText({ tool: 't' })).toBe(serverPayloadText({ tool: 't', args: {} }));
  });
});
