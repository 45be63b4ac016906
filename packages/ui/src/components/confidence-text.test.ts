import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { bandMeaning } from './confidence-text.js';

const pending = (facts: Partial<Gate>) =>
  ({
    status: 'pending',
    timeoutAt: 1_000,
    timeoutAction: 'deny',
    escalationChain: ['tech_lead', 'admin'],
    minRole: 'developer',
    ...facts,
  }) as Gate;

describe('bandMeaning', () => {
  it('never says a medium-confidence gate proceeds when its deadline denies', () => {
    const text = bandMeaning('medium', pending({ timeoutAction: 'deny' }));
    expect(text).toBe('0.5 to 0.8; this gate waits for a person, and at the deadline it will deny.');
    expect(text).not.toMatch(/goes ahead|proceed/);
  });

  it('says the agent goes ahead at the deadline only for a proceed timeout', () => {
    expect(bandMeaning('medium', pending({ timeoutAction: 'proceed' }))).toContain(
      'the agent goes ahead on its own at the deadline',
    );
  });

  it('names the role an escalating deadline hands the gate to', () => {
    expect(bandMeaning('low', pending({ timeoutAction: 'escalate' }))).toContain('escalate to tech lead');
  });

  it('says a gate without a deadline waits for a person', () => {
    expect(bandMeaning('zero', pending({ timeoutAt: null }))).toBe(
      'below 0.2; this gate waits for a person and has no deadline.',
    );
  });
});
