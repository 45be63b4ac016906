import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { revealText } from './reveal-text.js';
import {
  decisionWhitelistScope,
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

describe('the whitelist scope in a signed decision', () => {
  const finding = { type: 'false_positive_override', context: { findingKey: 'k1' } };

  it('binds the scope a person chose for Whitelist on a finding, its defaults filled in', () => {
    const whitelist = decisionWhitelistScope(finding, 'whitelist', {
      path: 'src/legacy/**',
      agents: 'every',
    });
    expect(whitelist).toEqual({ path: 'src/legacy/**', agents: 'every', expiresInDays: 90 });
    expect(decisionWhitelistScope(finding, 'whitelist', undefined)).toEqual({
      path: null,
      agents: 'this',
      expiresInDays: 90,
    });
    const text = signedDecisionText({ gateId: 'gate_1', option: 'whitelist', payloadHash: null, whitelist });
    expect(text).toBe(
      'gatehouse-decision-v2\n{"feedback":null,"gateId":"gate_1","instructions":null,"option":"whitelist","payloadHash":null,"reason":null,"whitelist":{"agents":"every","expiresInDays":90,"path":"src/legacy/**"}}',
    );
  });

  it('changes when any part of the scope changes', () => {
    const base = { gateId: 'g', option: 'whitelist', payloadHash: null };
    const scope = { path: null, agents: 'this', expiresInDays: 90 } as const;
    const texts = new Set([
      signedDecisionText(base),
      signedDecisionText({ ...base, whitelist: scope }),
      signedDecisionText({ ...base, whitelist: { ...scope, path: 'src/**' } }),
      signedDecisionText({ ...base, whitelist: { ...scope, agents: 'every' } }),
      signedDecisionText({ ...base, whitelist: { ...scope, expiresInDays: 30 } }),
    ]);
    expect(texts.size).toBe(5);
  });

  it.each([
    ['another option', finding, 'legitimate'],
    ['a re-review of an entry', { ...finding, context: { whitelistReview: 'wl_1' } }, 'whitelist'],
    ['another gate type', { type: 'destructive_action', context: {} }, 'whitelist'],
  ])('is left out for %s, so those texts stay as they were', (_what, gate, option) => {
    expect(decisionWhitelistScope(gate, option, { agents: 'every' })).toBeUndefined();
  });
});
