import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canProceedOnTimeout, createGateCatalog } from '../gates/catalog.js';
import { resolveDecideOption } from '../gates/decide-option.js';
import { batchEligibility } from '../gates/decision-safety.js';
import { TRIGGER_GATE_TYPES } from '../gates/escalation.js';
import { openGate } from '../gates/gate-open.js';
import { POLICY_EVENTS } from '../policy/policy-schema.js';
import { RISK_LEVELS, ROLES } from '../schemas.js';
import { BUILTIN_GATE_SPECS } from './index.js';

const catalog = createGateCatalog();
const specArb = fc.constantFrom(...BUILTIN_GATE_SPECS);
const contextArb = fc.dictionary(
  fc.string({ maxLength: 12 }),
  fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
  ),
  { maxKeys: 8 },
);

describe('built-in gate type specs', () => {
  it('map every equivalent to an option that ends the gate', () => {
    fc.assert(
      fc.property(specArb, ({ definition, equivalents }) => {
        for (const id of Object.values(equivalents)) {
          expect(definition.options.some((option) => option.id === id && option.ends)).toBe(true);
        }
      }),
    );
  });

  it('give a plain reject and steer the option their equivalents name', () => {
    fc.assert(
      fc.property(specArb, ({ definition, equivalents }) => {
        const gate = openGate({ type: definition.type }, { now: 0, id: 'gate_p', catalog });
        if (equivalents.reject !== undefined) {
          expect(resolveDecideOption(gate, 'reject', false).option.id).toBe(equivalents.reject);
        }
        if (equivalents.steer !== undefined) {
          expect(resolveDecideOption(gate, 'steer', false).option.id).toBe(equivalents.steer);
        }
      }),
    );
  });

  it('never let a never-proceed type proceed on timeout, whatever the gate asks', () => {
    fc.assert(
      fc.property(
        specArb.filter((spec) => spec.neverProceeds),
        fc.constantFrom(...RISK_LEVELS),
        fc.constantFrom(...ROLES),
        fc.boolean(),
        (spec, risk, minRole, destructive) => {
          expect(spec.definition.defaultTimeoutAction).not.toBe('proceed');
          const input = { definition: spec.definition, risk, minRole, destructive, alwaysGated: false };
          expect(canProceedOnTimeout(input)).toBe(false);
        },
      ),
    );
  });

  it('keep every gate of a mandatory type out of a batch, batchable or not', () => {
    fc.assert(
      fc.property(
        specArb.filter((spec) => spec.definition.threshold === 'mandatory'),
        fc.constantFrom('low', 'medium'),
        (spec, risk) => {
          const gate = openGate(
            { type: spec.definition.type, risk, threshold: 'conditional' },
            { now: 0, id: 'gate_b', catalog },
          );
          expect(batchEligibility(gate).eligible).toBe(false);
        },
      ),
    );
  });

  it('keep a type that is not batchable out of every batch', () => {
    fc.assert(
      fc.property(
        specArb.filter((spec) => !spec.batchable),
        (spec) => {
          const gate = openGate({ type: spec.definition.type }, { now: 0, id: 'gate_n', catalog });
          expect(batchEligibility(gate)).toMatchObject({ eligible: false, rule: 'gate_type' });
        },
      ),
    );
  });

  it('let only the agent that asked withdraw a gate, and only of a type an agent opens', () => {
    for (const spec of BUILTIN_GATE_SPECS.filter((each) => each.withdrawable)) {
      expect(spec.openedBy).toBe('agent');
    }
  });

  it('open by trigger rules exactly the types the trigger rules know', () => {
    const triggered = BUILTIN_GATE_SPECS.filter((spec) => spec.openedBy === 'trigger_rules');
    expect(triggered.map((spec) => spec.definition.type).sort()).toEqual([...TRIGGER_GATE_TYPES].sort());
  });

  it('name every request event Gatehouse raises as the default of exactly one type', () => {
    const named = BUILTIN_GATE_SPECS.flatMap((spec) =>
      spec.policyEvent === undefined ? [] : [spec.policyEvent],
    );
    expect([...named].sort()).toEqual([...POLICY_EVENTS].sort());
  });

  it('steer a steerable type through an option of its own and name no other for it', () => {
    fc.assert(
      fc.property(
        specArb.filter((spec) => spec.definition.steerable),
        ({ definition, equivalents }) => {
          expect(definition.options.some((option) => option.ends && option.outcome === 'steered')).toBe(true);
          expect(equivalents.steer).toBeUndefined();
        },
      ),
    );
  });

  it('pass the validation a custom type gets', () => {
    fc.assert(
      fc.property(specArb, ({ definition }) => {
        const local = createGateCatalog();
        expect(() => local.register({ ...definition, type: `copy_${definition.type}` })).not.toThrow();
      }),
    );
  });

  it('build a briefing with a summary from any context', () => {
    fc.assert(
      fc.property(specArb, contextArb, (spec, context) => {
        const gate = openGate({ type: spec.definition.type, context }, { now: 0, id: 'gate_c', catalog });
        const input = {
          gate,
          context,
          agent: null,
          confidence: null,
          recoveryHistory: [],
          proposedAction: null,
        };
        expect(() => spec.briefing(input)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});
