import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatehouseError } from '../errors.js';
import { BUILTIN_GATE_TYPES } from '../gate-types/index.js';
import type { Gate, TimeoutAction } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { openGate } from './gate-open.js';
import { applyGateEvent, type GateEvent, isTerminal, TIMEOUT_ACTOR } from './gate-state.js';

const catalog = createGateCatalog();
const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const PEOPLE = ['ana', 'bo', 'cy', 'dee', 'eli'];
const OPTION_IDS = [...new Set(BUILTIN_GATE_TYPES.flatMap((d) => d.options.map((o) => o.id))), 'bogus'];

const person = fc.constantFrom(...PEOPLE);
const text = fc.option(fc.constantFrom('', '  ', 'use the staging database', 'looks right'), {
  nil: undefined,
});

const eventArb: fc.Arbitrary<GateEvent> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      type: fc.constant('decide' as const),
      option: fc.oneof(
        { weight: 4, arbitrary: fc.constant('approve') },
        { weight: 3, arbitrary: fc.constantFrom(...OPTION_IDS) },
      ),
      by: person,
      reason: text,
      feedback: text,
      instructions: text,
      affectedArtifacts: fc.option(fc.constantFrom(['docs/a.md'], ['../escape'], []), { nil: undefined }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('expire' as const),
      escalationStepMs: fc.integer({ min: 1, max: 30 * MINUTE }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('cancel' as const),
      by: person,
      reason: fc.constant('dropped'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('extend' as const),
      until: fc.integer({ min: START, max: START + 300 * MINUTE }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('assign' as const), assignees: fc.subarray(PEOPLE) }),
  },
);

const stepArb = fc.record({ dt: fc.integer({ min: 0, max: 15 * MINUTE }), event: eventArb });

const openArb = fc.record({
  type: fc.constantFrom(...BUILTIN_GATE_TYPES.map((d) => d.type)),
  requiredApprovals: fc.integer({ min: 1, max: 3 }),
  timeoutMs: fc.option(fc.integer({ min: 1000, max: 60 * MINUTE }), { nil: null }),
  timeoutAction: fc.constantFrom<TimeoutAction>('deny', 'escalate', 'proceed'),
  risk: fc.constantFrom('low' as const, 'medium' as const, 'high' as const, 'critical' as const),
});

type OpenInput = typeof openArb extends fc.Arbitrary<infer T> ? T : never;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function openFor(input: OpenInput): Gate {
  const base = { ...input, timeoutAction: undefined, requestedBy: 'agent_1' };
  try {
    return openGate({ ...base, timeoutAction: input.timeoutAction }, { now: START, id: 'gate_1', catalog });
  } catch (error) {
    if (!isGatehouseError(error) || error.code !== 'TIMEOUT_ACTION_NOT_ALLOWED') throw error;
    return openGate(base, { now: START, id: 'gate_1', catalog });
  }
}

/** Applies the event, keeping the gate as it was when the event is refused. */
function step(gate: Gate, event: GateEvent, now: number): Gate {
  try {
    return applyGateEvent(deepFreeze(gate), event, now).gate;
  } catch (error) {
    if (!isGatehouseError(error)) throw error;
    return gate;
  }
}

function distinctVoters(gate: Gate): number {
  return new Set(gate.approvals.map((vote) => vote.by)).size;
}

describe('gate state machine properties', () => {
  it('ends at most once, with exactly one decision that never changes afterwards', () => {
    fc.assert(
      fc.property(openArb, fc.array(stepArb, { maxLength: 25 }), (input, steps) => {
        let gate = openFor(input);
        let now = START;
        let ended: Gate | null = null;
        for (const { dt, event } of steps) {
          now += dt;
          gate = step(gate, event, now);
          expect(gate.status === 'pending').toBe(gate.decision === null);
          if (ended !== null) expect(gate).toEqual(ended);
          else if (isTerminal(gate.status)) ended = gate;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never approves with fewer distinct approvers than required, nor after the deadline', () => {
    fc.assert(
      fc.property(openArb, fc.array(stepArb, { maxLength: 25 }), (input, steps) => {
        let gate = openFor(input);
        let now = START;
        for (const { dt, event } of steps) {
          now += dt;
          const before = gate;
          gate = step(gate, event, now);
          expect(distinctVoters(gate)).toBe(gate.approvals.length);
          if (before.status !== 'pending' || gate.status !== 'approved') continue;
          if (gate.decision?.decidedBy === TIMEOUT_ACTOR) {
            expect(gate.timeoutAction).toBe('proceed');
            continue;
          }
          expect(distinctVoters(gate)).toBeGreaterThanOrEqual(gate.requiredApprovals);
          if (before.timeoutAt !== null) expect(now).toBeLessThan(before.timeoutAt);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('approves an N-of-M gate exactly when the N-th distinct person approves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(person, { maxLength: 12 }), (n, voters) => {
        let gate = openGate({ type: 'code_review', requiredApprovals: n }, { now: START, id: 'g', catalog });
        const seen = new Set<string>();
        for (const by of voters) {
          if (isTerminal(gate.status)) break;
          const event: GateEvent = { type: 'decide', option: 'approve', by };
          if (seen.has(by)) {
            expect(() => applyGateEvent(gate, event, START + 1)).toThrowError(/already approved/);
            continue;
          }
          seen.add(by);
          gate = applyGateEvent(gate, event, START + 1).gate;
          expect(gate.status).toBe(seen.size >= n ? 'approved' : 'pending');
        }
      }),
      { numRuns: 300 },
    );
  });
});
