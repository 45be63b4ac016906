import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatehouseError } from '../errors.js';
import type { Gate } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { openGate } from './gate-open.js';
import { applyGateEvent, type DecideEvent, isTerminal } from './gate-state.js';

const catalog = createGateCatalog();
const START = Date.UTC(2026, 0, 1);
const ORIGINAL_HASH = '0'.repeat(64);

const argsArb = fc.dictionary(fc.constantFrom('command', 'path', 'diff', 'n'), fc.jsonValue(), {
  maxKeys: 3,
});

const openArb = fc.record({
  type: fc.constantFrom('tool_call', 'operation', 'code_review', 'question', 'phase_review'),
  requiredApprovals: fc.integer({ min: 1, max: 3 }),
  args: argsArb,
  withAction: fc.boolean(),
  editable: fc.option(fc.constant(false as const), { nil: undefined }),
});

const decideArb: fc.Arbitrary<DecideEvent> = fc.record({
  type: fc.constant('decide' as const),
  option: fc.constantFrom('approve', 'approve_always', 'reject', 'steer', 'answer', 'request_changes'),
  by: fc.constantFrom('ana', 'bo', 'cy'),
  instructions: fc.option(fc.constant('use staging'), { nil: undefined }),
  feedback: fc.option(fc.constant('fix the tests'), { nil: undefined }),
  answer: fc.option(fc.constantFrom('', '  ', 'Use the EU region'), { nil: undefined }),
  edit: fc.option(
    fc.record({ args: argsArb, payloadHash: fc.constantFrom('1'.repeat(64), '2'.repeat(64)) }),
    {
      nil: undefined,
    },
  ),
});

type OpenInput = typeof openArb extends fc.Arbitrary<infer T> ? T : never;

function openFor(input: OpenInput): Gate {
  return openGate(
    {
      type: input.type,
      requiredApprovals: input.requiredApprovals,
      editable: input.editable,
      action: input.withAction ? { tool: 'shell', args: input.args } : null,
      payloadHash: input.withAction ? ORIGINAL_HASH : null,
    },
    { now: START, id: 'gate_1', catalog },
  );
}

function step(gate: Gate, event: DecideEvent): Gate {
  try {
    return applyGateEvent(gate, event, START + 1).gate;
  } catch (error) {
    if (!isGatehouseError(error)) throw error;
    return gate;
  }
}

describe('edit-then-approve and answer properties', () => {
  it('records an edit only as a single-approver approve on an editable gate, keeping both hashes', () => {
    fc.assert(
      fc.property(openArb, fc.array(decideArb, { maxLength: 8 }), (input, events) => {
        let gate = openFor(input);
        const opened = gate;
        if (gate.editable) {
          expect(gate.requiredApprovals).toBe(1);
          expect(Object.keys(gate.action?.args ?? {}).length).toBeGreaterThan(0);
          expect(input.editable).toBeUndefined();
        }
        for (const event of events) {
          if (isTerminal(gate.status)) break;
          gate = step(gate, event);
          // The agent's proposal is never overwritten; the edit lives in the decision.
          expect(gate.action).toEqual(opened.action);
          expect(gate.payloadHash).toBe(opened.payloadHash);
          const decision = gate.decision;
          if (decision === null) continue;
          if (decision.editedArgs !== undefined) {
            expect(opened.editable).toBe(true);
            expect(decision.option).toBe('approve');
            expect(decision.outcome).toBe('approved');
            expect(decision.editedArgs).toEqual(event.edit?.args);
            expect(decision.payloadHash).toBe(event.edit?.payloadHash);
            expect(decision.originalPayloadHash).toBe(ORIGINAL_HASH);
          } else {
            expect(decision.originalPayloadHash).toBeUndefined();
            expect(decision.payloadHash ?? null).toBe(opened.payloadHash);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('ends a question only with a non-empty answer, and never carries an answer otherwise', () => {
    fc.assert(
      fc.property(openArb, fc.array(decideArb, { maxLength: 8 }), (input, events) => {
        let gate = openFor(input);
        for (const event of events) {
          if (isTerminal(gate.status)) break;
          gate = step(gate, event);
        }
        const decision = gate.decision;
        if (decision === null) return;
        if (decision.option === 'answer') expect(decision.answer?.trim()).toBeTruthy();
        else expect(decision.answer).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });
});
