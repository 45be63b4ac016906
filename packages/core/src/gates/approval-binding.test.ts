import fc from 'fast-check';
import { approvalBindingText } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { approvalBinding, sha256Hex } from './approval-binding.js';

const ACTION_HASH = '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';

const gate = (id: string, payloadHash: string | null = ACTION_HASH) => ({ id, payloadHash, decision: null });

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    ['x'.repeat(55), 'd5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072'],
    ['x'.repeat(56), '04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e'],
    ['x'.repeat(64), '7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c'],
    ['a'.repeat(1000), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3'],
    ['é ⟨U+202E⟩ 🚀', 'dd2a898ce061f3099c3a52820da5bf6a328957c10e3c341258a992b82e67b564'],
  ])('hashes %j as SHA-256 does', (text, hex) => {
    expect(sha256Hex(text)).toBe(hex);
  });
});

describe('approvalBinding', () => {
  it('differs between two gates with the same action, and stays the same for one gate', () => {
    expect(approvalBinding(gate('gate_1'))).not.toBe(approvalBinding(gate('gate_2')));
    expect(approvalBinding(gate('gate_1'))).toBe(approvalBinding(gate('gate_1')));
  });

  it('is SHA-256 of the gate id and payload hash in canonical JSON behind a version line', () => {
    const text = approvalBindingText({ gateId: 'gate_1', payloadHash: ACTION_HASH });
    expect(text).toBe(`gatehouse-approval-binding-v1\n{"gateId":"gate_1","payloadHash":"${ACTION_HASH}"}`);
    expect(approvalBinding(gate('gate_1'))).toBe(sha256Hex(text));
  });

  it('binds an edited approval to the edited action', () => {
    const decided = {
      ...gate('gate_1'),
      decision: { payloadHash: 'e'.repeat(64), editedArgs: { path: 'b' }, originalPayloadHash: ACTION_HASH },
    } as unknown as Parameters<typeof approvalBinding>[0];
    expect(approvalBinding(decided)).toBe(approvalBinding(gate('gate_1', 'e'.repeat(64))));
    expect(approvalBinding(decided)).not.toBe(approvalBinding(gate('gate_1')));
  });

  it('is null for a gate without an action', () => {
    expect(approvalBinding(gate('gate_1', null))).toBeNull();
  });

  it('never gives two different gates, or two different actions, the same value', () => {
    const hash = fc.stringMatching(/^[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.string(), fc.string(), hash, hash, (x, y, first, second) => {
        fc.pre(x !== y || first !== second);
        expect(approvalBinding(gate(x, first))).not.toBe(approvalBinding(gate(y, second)));
        expect(approvalBinding(gate(x, first))).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });
});
