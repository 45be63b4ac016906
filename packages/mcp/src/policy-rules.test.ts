import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_RULES, policyRules } from './policy-rules.js';

const view = (source: string, failure: string | null = null) => ({
  version: 3,
  name: 'test',
  source,
  format: 'yaml' as const,
  failure,
  createdBy: 'user_admin',
  createdAt: 0,
});

const POLICY = `
name: test
rules:
  - { id: allow-reads, priority: 100, match: { tools: [read_file] }, action: allow, reason: Reads are safe. }
  - { id: gate-shell, priority: 500, match: { tools: [shell] }, action: { gate: { risk: high } }, reason: Shell needs a person. }
  - { id: off, priority: 900, enabled: false, action: deny, reason: Switched off. }
  - { id: deny-prod, priority: 950, condition: 'args.env == "prod"', action: deny, reason: Never in prod. }
`;

describe('policyRules', () => {
  it('lists the enabled rules, highest priority first, with how each decides', () => {
    const rules = policyRules(view(POLICY), null);
    expect(rules.rules.map((rule) => rule.id)).toEqual(['deny-prod', 'gate-shell', 'allow-reads']);
    expect(rules.rules[1]).toMatchObject({ action: 'gate', gate: { risk: 'high' }, tools: ['shell'] });
    expect(rules.rules[0]).toMatchObject({ action: 'deny', condition: 'args.env == "prod"', tools: null });
    expect(rules).toMatchObject({ version: 3, defaultAction: 'gate', failure: null, omittedRules: 0 });
  });

  it('keeps only the rules that can apply to one tool', () => {
    expect(policyRules(view(POLICY), 'read_file').rules.map((rule) => rule.id)).toEqual([
      'deny-prod',
      'allow-reads',
    ]);
  });

  it('reads the built-in default policy', () => {
    expect(policyRules(view(DEFAULT_POLICY_YAML), null).rules.length).toBeGreaterThan(10);
  });

  it('says so when the source cannot be read, and caps long lists', () => {
    expect(policyRules(view('rules: [', null), null)).toMatchObject({
      rules: [],
      failure: expect.any(String),
    });
    const many = Array.from(
      { length: MAX_LISTED_RULES + 5 },
      (_, i) => `  - { id: r${i}, priority: 1, action: allow, reason: ok }`,
    );
    const capped = policyRules(view(`name: big\nrules:\n${many.join('\n')}`), null);
    expect(capped.rules).toHaveLength(MAX_LISTED_RULES);
    expect(capped.omittedRules).toBe(5);
  });
});
