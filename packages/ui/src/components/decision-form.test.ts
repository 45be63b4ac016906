import { createGateCatalog, type GateOption, openGate } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { EMPTY_REPLY, missingFields, replyBody, replyBoxOf, replyOpenByDefault } from './decision-form.js';

const catalog = createGateCatalog();

function gateOf(type: string, context: Record<string, unknown> = {}): Gate {
  return openGate(
    { type, context, agentId: 'agent_1' },
    { now: Date.UTC(2026, 0, 1), id: 'gate_1', catalog },
  );
}

const optionOf = (gate: Gate, id: string): GateOption => {
  const found = gate.options.find((option) => option.id === id);
  if (!found) throw new Error(`no option ${id}`);
  return found;
};

describe('reply boxes', () => {
  it.each([
    ['tool_call', 'approve', 'feedback', 'Feedback sent with the approval (Approve)', false],
    ['tool_call', 'reject', 'reason', 'Reason the agent is told (Reject)', true],
    ['recovery_escalation', 'abort', 'reason', 'Reason the agent is told (Abort)', false],
    ['question', 'answer', 'answer', 'Answer the agent receives', true],
  ])('gives %s option %s a %s box labelled %j', (type, id, field, label, open) => {
    const option = optionOf(gateOf(type), id);
    expect(replyBoxOf(option)).toMatchObject({ field, label });
    expect(replyOpenByDefault(option)).toBe(open);
  });

  it('gives options that open the steer form or only show more no box', () => {
    const gate = gateOf('recovery_escalation');
    expect(replyBoxOf(optionOf(gateOf('tool_call'), 'steer'))).toBeNull();
    expect(replyBoxOf(optionOf(gate, 'view'))).toBeNull();
  });

  it('sends only the chosen option’s own fields', () => {
    const gate = gateOf('recovery_escalation');
    const reply = { text: '  docs-bot knows the site  ', delegateTo: 'agent_2', newLimit: '' };
    expect(replyBody(optionOf(gate, 'delegate'), reply)).toEqual({
      reason: 'docs-bot knows the site',
      delegateTo: 'agent_2',
    });
    expect(replyBody(optionOf(gate, 'approve'), { ...EMPTY_REPLY, text: 'go' })).toEqual({ feedback: 'go' });
  });
});

describe('missingFields', () => {
  const none = { reply: EMPTY_REPLY, instructions: '' };

  it('asks for the agent of a delegation, and never the agent that asked', () => {
    const gate = gateOf('recovery_escalation');
    const delegate = optionOf(gate, 'delegate');
    expect(missingFields(gate, delegate, none, false).delegateTo).toMatch(/Choose the agent/);
    const self = { reply: { ...EMPTY_REPLY, delegateTo: 'agent_1' }, instructions: '' };
    expect(missingFields(gate, delegate, self, false).delegateTo).toMatch(/different agent/);
    const other = { reply: { ...EMPTY_REPLY, delegateTo: 'agent_2' }, instructions: '' };
    expect(missingFields(gate, delegate, other, false)).toEqual({});
  });

  it('asks for a new limit above the current one, as the server does', () => {
    const gate = gateOf('constraint_exception', { currentLimit: 100 });
    const expand = optionOf(gate, 'expand_constraint');
    const limit = (newLimit: string) =>
      missingFields(gate, expand, { reply: { ...EMPTY_REPLY, newLimit }, instructions: '' }, false).newLimit;
    expect(limit('')).toMatch(/as a number/);
    expect(limit('abc')).toMatch(/as a number/);
    expect(limit('100')).toMatch(/above the current limit 100/);
    expect(limit('150')).toBeUndefined();
  });

  it('asks for a question’s answer', () => {
    const gate = gateOf('question');
    expect(missingFields(gate, optionOf(gate, 'answer'), none, false).answer).toMatch(/answer/);
  });
});
