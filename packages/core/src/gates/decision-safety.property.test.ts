import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAlwaysGated } from '../destructive/destructive.js';
import { type Gate, type GateOption, RISK_LEVELS, type RiskLevel } from '../schemas.js';
import { makeGate } from '../testing/gates.js';
import {
  bindingForKey,
  DECISION_KEYS,
  decisionKeys,
  HELP_KEY,
  TASK_ENDING_OPTIONS,
} from './decision-keys.js';
import { BATCH_EXCLUDED_TYPES, batchEligibility, canOfferAlways } from './decision-safety.js';

const OPTION_IDS = [
  'approve',
  'approve_always',
  'reject',
  'reject_rollback',
  'steer',
  'view',
  'diff',
  'history',
  'retry',
  'delegate',
  'abort',
  'suggest',
  'whitelist',
  'expand_constraint',
];
const COMMANDS = [
  'make lint',
  'rm -rf build',
  'psql -c "DROP TABLE users"',
  'apt-get install jq',
  'ls',
  'git status',
];
const TYPES = ['tool_call', 'operation', 'code_review', ...BATCH_EXCLUDED_TYPES];

const optionArb: fc.Arbitrary<GateOption[]> = fc
  .uniqueArray(fc.constantFrom(...OPTION_IDS), { minLength: 0, maxLength: OPTION_IDS.length })
  .chain((ids) =>
    fc.tuple(...ids.map(() => fc.boolean())).map((ends) =>
      ids.map((id, i) => ({
        id,
        label: id,
        key: 'z',
        description: '',
        ends: ends[i] ?? true,
        requires: [],
      })),
    ),
  );

const actionArb = fc.option(
  fc.record({
    tool: fc.constantFrom('shell', 'bash'),
    args: fc.record({ command: fc.constantFrom(...COMMANDS) }),
  }),
  { nil: null },
);

const gateArb: fc.Arbitrary<Gate> = fc
  .record({
    type: fc.constantFrom(...TYPES),
    risk: fc.constantFrom(...RISK_LEVELS),
    threshold: fc.constantFrom('mandatory' as const, 'advisory' as const, 'conditional' as const),
    requiredApprovals: fc.integer({ min: 1, max: 4 }),
    signatureRequired: fc.boolean(),
    destructive: fc.boolean(),
    options: optionArb,
    action: actionArb,
  })
  .map(({ destructive, ...rest }) =>
    makeGate(rest.type, { ...rest, context: destructive ? { destructive } : {} }),
  );

const riskRank = (risk: RiskLevel) => RISK_LEVELS.indexOf(risk);

describe('batchEligibility properties', () => {
  it('only ever admits low or medium risk, non-mandatory, single-approval, unsigned, ordinary gates', () => {
    fc.assert(
      fc.property(gateArb, (gate) => {
        if (!batchEligibility(gate).eligible) return;
        expect(riskRank(gate.risk)).toBeLessThanOrEqual(riskRank('medium'));
        expect(gate.threshold).not.toBe('mandatory');
        expect(gate.requiredApprovals).toBe(1);
        expect(gate.signatureRequired).toBe(false);
        expect(BATCH_EXCLUDED_TYPES.has(gate.type)).toBe(false);
        expect(gate.action !== null && isAlwaysGated(gate.action)).toBe(false);
        expect(gate.context.destructive).not.toBe(true);
      }),
    );
  });

  it('never admits a gate after it was made stricter', () => {
    const stricter = fc.constantFrom<(gate: Gate) => Gate>(
      (gate) => ({ ...gate, risk: 'high' }),
      (gate) => ({ ...gate, threshold: 'mandatory' }),
      (gate) => ({ ...gate, requiredApprovals: gate.requiredApprovals + 1 }),
      (gate) => ({ ...gate, signatureRequired: true }),
      (gate) => ({ ...gate, context: { ...gate.context, destructive: true } }),
      (gate) => ({ ...gate, action: { tool: 'shell', args: { command: 'rm -rf /srv' } } }),
    );
    fc.assert(
      fc.property(gateArb, stricter, (gate, tighten) => {
        if (!batchEligibility(gate).eligible) expect(batchEligibility(tighten(gate)).eligible).toBe(false);
        expect(batchEligibility(tighten(tighten(gate))).eligible).toBe(false);
      }),
    );
  });
});

describe('key map properties', () => {
  it('gives each key one meaning, fixed letters to fixed roles and digits in option order', () => {
    fc.assert(
      fc.property(gateArb, (gate) => {
        const bindings = decisionKeys(gate);
        const keys = bindings.map((binding) => binding.key).filter((key) => key !== '');
        expect(new Set(keys).size).toBe(keys.length);
        const digits = bindings
          .filter((binding) => binding.role === 'numbered')
          .map((binding) => binding.key);
        expect(digits).toEqual(digits.map((_, i) => (i < 9 ? String(i + 1) : '')));
        for (const binding of bindings) {
          if (binding.role !== 'numbered') expect(binding.key).toBe(DECISION_KEYS[binding.role]);
          expect([HELP_KEY, 'j', 'k', 'x', 'n', 'p', 'q']).not.toContain(binding.key);
          if (binding.key !== '') expect(bindingForKey(gate, binding.key)).toEqual(binding);
        }
      }),
    );
  });

  it('never lets a show-more option end a gate, and asks before any option that ends the task', () => {
    fc.assert(
      fc.property(gateArb, (gate) => {
        for (const binding of decisionKeys(gate)) {
          expect(binding.ends).toBe(binding.option.ends);
          if (!binding.ends) expect(binding.confirm).toBe(false);
          expect(binding.confirm).toBe(binding.ends && TASK_ENDING_OPTIONS.has(binding.option.id));
        }
      }),
    );
  });

  it('offers Always exactly where the server would take it, never on an always-gated action', () => {
    fc.assert(
      fc.property(gateArb, (gate) => {
        const always = decisionKeys(gate).some((binding) => binding.option.id === 'approve_always');
        expect(always).toBe(canOfferAlways(gate));
        if (gate.action !== null && isAlwaysGated(gate.action)) expect(always).toBe(false);
      }),
    );
  });
});
