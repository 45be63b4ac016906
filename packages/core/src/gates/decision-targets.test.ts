import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Gate } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { MAX_NEW_LIMIT } from './decision-targets.js';
import { openGate } from './gate-open.js';
import { applyGateEvent, type DecideEvent } from './gate-state.js';

const catalog = createGateCatalog();
const NOW = Date.UTC(2026, 0, 1);

function gateOf(type: string, context: Record<string, unknown> = {}): Gate {
  return openGate({ type, agentId: 'agent_1', context }, { now: NOW, id: `gate_${type}`, catalog });
}

function decide(gate: Gate, event: Omit<DecideEvent, 'type' | 'by'>) {
  return applyGateEvent(gate, { type: 'decide', by: 'user_1', ...event }, NOW + 1);
}

function fieldOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return ((error as { details?: { field?: string } }).details?.field ?? 'none') as string;
  }
}

describe('delegate and expand-constraint decisions', () => {
  it('says which options need a delegate or a new limit', () => {
    const recovery = gateOf('recovery_escalation');
    const constraint = gateOf('constraint_exception');
    expect(recovery.options.find((option) => option.id === 'delegate')?.requires).toEqual(['delegateTo']);
    expect(constraint.options.find((option) => option.id === 'expand_constraint')?.requires).toEqual([
      'newLimit',
    ]);
  });

  it('records the agent a delegate decision hands the task to', () => {
    const next = decide(gateOf('recovery_escalation'), { option: 'delegate', delegateTo: 'agent_2' });
    expect(next.gate.decision).toMatchObject({
      option: 'delegate',
      outcome: 'resolved',
      delegateTo: 'agent_2',
    });
  });

  it('refuses a delegate without an agent, or to the agent that asked', () => {
    const gate = gateOf('recovery_escalation');
    expect(fieldOf(() => decide(gate, { option: 'delegate' }))).toBe('delegateTo');
    expect(fieldOf(() => decide(gate, { option: 'delegate', delegateTo: '  ' }))).toBe('delegateTo');
    expect(fieldOf(() => decide(gate, { option: 'delegate', delegateTo: 'agent_1' }))).toBe('delegateTo');
  });

  it('refuses a delegate or a limit sent with any other option', () => {
    expect(
      fieldOf(() => decide(gateOf('recovery_escalation'), { option: 'retry', delegateTo: 'agent_2' })),
    ).toBe('delegateTo');
    expect(
      fieldOf(() => decide(gateOf('constraint_exception'), { option: 'reduce_scope', newLimit: 5 })),
    ).toBe('newLimit');
  });

  it('records the new limit of an expand-constraint decision', () => {
    const next = decide(gateOf('constraint_exception'), { option: 'expand_constraint', newLimit: 250 });
    expect(next.gate.decision).toMatchObject({ option: 'expand_constraint', newLimit: 250 });
  });

  it('refuses an expansion without a limit', () => {
    expect(fieldOf(() => decide(gateOf('constraint_exception'), { option: 'expand_constraint' }))).toBe(
      'newLimit',
    );
  });

  it('accepts exactly the limits that are positive, bounded and above the stated current limit', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer({ min: -10, max: 2_000 }), fc.constant(MAX_NEW_LIMIT + 1)),
        fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined }),
        (newLimit, current) => {
          const gate = gateOf('constraint_exception', current === undefined ? {} : { currentLimit: current });
          const accepted =
            Number.isFinite(newLimit) &&
            newLimit > 0 &&
            newLimit <= MAX_NEW_LIMIT &&
            (current === undefined || newLimit > current);
          const field = fieldOf(() => decide(gate, { option: 'expand_constraint', newLimit }));
          expect(field).toBe(accepted ? null : 'newLimit');
        },
      ),
    );
  });
});
