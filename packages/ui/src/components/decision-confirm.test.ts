import { createGateCatalog, decisionKeys, type KeyBinding, openGate } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { type ChosenBy, confirmationFor, confirmationText } from './decision-confirm.js';
import { EMPTY_REPLY } from './decision-form.js';

const catalog = createGateCatalog();

function gateOf(type: string, risk: Gate['risk']): Gate {
  const gate = openGate(
    { type, context: {}, agentId: 'agent_1' },
    { now: Date.UTC(2026, 0, 1), id: 'gate_1', catalog },
  );
  return { ...gate, risk };
}

const bindingOf = (gate: Gate, id: string): KeyBinding => {
  const found = decisionKeys(gate).find((binding) => binding.option.id === id);
  if (!found) throw new Error(`no option ${id}`);
  return found;
};

const kindOf = (gate: Gate, id: string, by: ChosenBy) =>
  confirmationFor({ gate, binding: bindingOf(gate, id), by, replyOf: () => EMPTY_REPLY })?.kind ?? null;

describe('confirmations', () => {
  it.each([
    ['critical', 'approve', 'key', 'risky_key'],
    ['high', 'reject', 'key', 'risky_key'],
    ['critical', 'approve', 'click', null],
    ['medium', 'approve', 'key', null],
    ['low', 'reject', 'key', null],
    ['critical', 'steer', 'key', null],
  ] as const)('on a %s gate, %s by %s asks %s', (risk, id, by, kind) => {
    expect(kindOf(gateOf('tool_call', risk), id, by)).toBe(kind);
  });

  it('asks before a task ends, whatever the risk or the way it was chosen', () => {
    expect(kindOf(gateOf('recovery_escalation', 'low'), 'abort', 'click')).toBe('ends_task');
  });

  it('opens a risky key on its confirm button and names the reason that goes', () => {
    const gate = gateOf('tool_call', 'high');
    const confirmation = confirmationFor({
      gate,
      binding: bindingOf(gate, 'reject'),
      by: 'key',
      replyOf: () => ({ ...EMPTY_REPLY, text: ' not now ' }),
    });
    if (confirmation === null) throw new Error('no confirmation');
    expect(confirmationText(confirmation)).toMatchObject({
      title: 'Reject a high-risk action?',
      confirmLabel: 'Reject',
      focusConfirm: true,
      lines: [expect.stringContaining('“not now”'), 'Enter confirms, Escape cancels.'],
    });
  });

  it('asks before a refusal throws a typed answer away, however it was chosen', () => {
    const gate = gateOf('question', 'low');
    const replyOf = (option: { id: string }) =>
      option.id === 'answer' ? { ...EMPTY_REPLY, text: 'Postgres' } : EMPTY_REPLY;
    const confirmation = confirmationFor({ gate, binding: bindingOf(gate, 'reject'), by: 'click', replyOf });
    expect(confirmation).toMatchObject({ kind: 'discards_answer', answer: 'Postgres' });
    expect(kindOf(gate, 'reject', 'click')).toBeNull();
  });
});
