import { describe, expect, it } from 'vitest';
import { buildBriefing } from '../briefing/briefing.js';
import { createGateCatalog } from '../gates/catalog.js';
import { batchEligibility } from '../gates/decision-safety.js';
import { openGate } from '../gates/gate-open.js';
import { DEFAULT_GATE_BEHAVIOUR } from './define.js';
import { BUILTIN_GATE_SPECS } from './index.js';

const definition = {
  type: 'budget_review',
  title: 'Budget review',
  trigger: 'spending is about to pass the budget',
  threshold: 'conditional',
  defaultRisk: 'low',
  defaultTimeoutAction: 'deny',
  options: [
    {
      id: 'approve',
      label: 'Approve',
      key: 'a',
      description: 'Spend it',
      ends: true,
      outcome: 'approved',
      requires: [],
    },
    {
      id: 'reject',
      label: 'Reject',
      key: 'r',
      description: 'Do not',
      ends: true,
      outcome: 'rejected',
      requires: [],
    },
  ],
  steerable: false,
  minRole: 'developer',
  signature: 'never',
  retentionDays: 30,
};

describe('a catalog spec', () => {
  it('gives each built-in type the spec it ships with', () => {
    const catalog = createGateCatalog();
    for (const spec of BUILTIN_GATE_SPECS) expect(catalog.spec(spec.definition.type)).toBe(spec);
  });

  it('gives a custom type registered with a plain definition the default behaviour', () => {
    const catalog = createGateCatalog();
    catalog.register(definition);
    const spec = catalog.spec('budget_review');
    expect(spec).toMatchObject({
      batchable: true,
      neverProceeds: false,
      withdrawable: false,
      openedBy: 'agent',
      equivalents: {},
    });
    expect(spec.briefing).toBe(DEFAULT_GATE_BEHAVIOUR.briefing);
    expect(spec.definition).toBe(catalog.get('budget_review'));
  });

  it('keeps the behaviour a custom type brings, but never equivalents of its own', () => {
    const catalog = createGateCatalog();
    const briefing = () => ({ summary: 'Over budget', sections: [] });
    catalog.register(definition, {
      briefing,
      batchable: false,
      withdrawable: true,
      ...({ equivalents: { reject: 'approve' } } as object),
    });
    const spec = catalog.spec('budget_review');
    expect(spec).toMatchObject({ batchable: false, withdrawable: true, equivalents: {} });
    const gate = openGate({ type: 'budget_review' }, { now: 0, id: 'gate_1', catalog });
    expect(buildBriefing(gate, {}, spec.briefing).summary).toBe('Over budget');
    expect(batchEligibility(gate, spec.batchable)).toMatchObject({ eligible: false, rule: 'gate_type' });
  });

  it('refuses "proceed" on timeout for a custom type that never proceeds', () => {
    const catalog = createGateCatalog();
    expect(() =>
      catalog.register({ ...definition, defaultTimeoutAction: 'proceed' }, { neverProceeds: true }),
    ).toThrow(/budget_review gates never proceed on timeout/);
    catalog.register(definition, { neverProceeds: true });
    expect(() =>
      openGate({ type: 'budget_review', timeoutAction: 'proceed' }, { now: 0, id: 'gate_2', catalog }),
    ).toThrow(/never proceed on timeout/);
  });

  it('throws UNKNOWN_GATE_TYPE for a type nobody registered', () => {
    expect(() => createGateCatalog().spec('nope')).toThrow(/unknown gate type "nope"/);
  });
});
