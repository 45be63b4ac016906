import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { revealText } from './reveal-text.js';
import {
  keyProofText,
  SIGNED_DECISION_PREFIX,
  SIGNED_DECISION_V3_PREFIX,
  signedDecisionText,
} from './signed-decision.js';

const fields = fc.record({
  gateId: fc.string(),
  option: fc.string(),
  payloadHash: fc.option(fc.string(), { nil: null }),
  reason: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
  feedback: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
  instructions: fc.option(fc.string({ unit: 'binary' }), { nil: undefined }),
});

describe('signedDecisionText', () => {
  it('is a version line and canonical JSON of gate, option, payload hash, reason, feedback and instructions', () => {
    const text = signedDecisionText({
      gateId: 'gate_1',
      option: 'steer',
      payloadHash: 'ab',
      reason: 'too wide',
      instructions: 'only build/',
    });
    expect(text).toBe(
      'gatehouse-decision-v2\n{"feedback":null,"gateId":"gate_1","instructions":"only build/","option":"steer","payloadHash":"ab","reason":"too wide"}',
    );
  });

  it('always starts with the version line followed by one line of JSON', () => {
    fc.assert(
      fc.property(fields, (input) => {
        const text = signedDecisionText(input);
        expect(text.startsWith(SIGNED_DECISION_PREFIX)).toBe(true);
        const body = JSON.parse(text.slice(SIGNED_DECISION_PREFIX.length));
        expect(Object.keys(body)).toEqual([
          'feedback',
          'gateId',
          'instructions',
          'option',
          'payloadHash',
          'reason',
        ]);
        expect(body.gateId).toBe(input.gateId);
        expect(body.option).toBe(input.option);
      }),
    );
  });

  it('changes when any signed field changes, so a signature covers each of them', () => {
    fc.assert(
      fc.property(
        fields,
        fc.constantFrom('reason', 'feedback', 'instructions', 'option', 'gateId'),
        (input, key) => {
          const changed = { ...input, [key]: `${input[key] ?? ''}x` };
          expect(signedDecisionText(changed)).not.toBe(signedDecisionText(input));
        },
      ),
    );
  });

  it('gives the same text for the words as typed and as the server keeps them (hidden characters as markers)', () => {
    fc.assert(
      fc.property(fields, (input) => {
        const kept = {
          ...input,
          reason: input.reason === undefined ? undefined : revealText(input.reason, { multiline: true }),
          feedback:
            input.feedback === undefined ? undefined : revealText(input.feedback, { multiline: true }),
        };
        expect(signedDecisionText(kept)).toBe(signedDecisionText(input));
      }),
    );
  });

  it('signs a hidden character as the marker the server stores', () => {
    const typed = signedDecisionText({
      gateId: 'g',
      option: 'approve',
      payloadHash: null,
      reason: 'ok\u202e',
    });
    const kept = signedDecisionText({
      gateId: 'g',
      option: 'approve',
      payloadHash: null,
      reason: 'ok⟨U+202E⟩',
    });
    expect(typed).toBe(kept);
  });
});

describe('keyProofText', () => {
  it('binds the challenge and the person', () => {
    expect(keyProofText({ challenge: 'c1', userId: 'user_a' })).toBe(
      `gatehouse-key-proof-v1\n${canonicalJson({ challenge: 'c1', userId: 'user_a' })}`,
    );
    expect(keyProofText({ challenge: 'c1', userId: 'user_a' })).not.toBe(
      keyProofText({ challenge: 'c1', userId: 'user_b' }),
    );
  });
});

describe('signedDecisionText in canonical JSON v2', () => {
  it('puts the same fields behind gatehouse-decision-v3, written as RFC 8785 writes them', () => {
    const input = { gateId: 'gate_1', option: 'approve', payloadHash: null, reason: 'ok' };
    expect(signedDecisionText(input, 2)).toBe(
      `${SIGNED_DECISION_V3_PREFIX}{"feedback":null,"gateId":"gate_1","instructions":null,"option":"approve","payloadHash":null,"reason":"ok"}`,
    );
    expect(signedDecisionText(input, 1)).toBe(signedDecisionText(input));
    expect(signedDecisionText(input).startsWith(SIGNED_DECISION_PREFIX)).toBe(true);
  });
});
