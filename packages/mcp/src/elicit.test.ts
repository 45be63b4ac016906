import { makeGate, RECOVERY_OPTIONS } from 'gatehouse-hitl-core/testing';
import { describe, expect, it } from 'vitest';
import { GatehouseApi } from './api.js';
import { decisionForm, type Operator, operatorMayDecide } from './elicit.js';

const operator: Operator = {
  api: new GatehouseApi({ url: 'http://127.0.0.1:1', token: 'ghs_test' }),
  person: { id: 'user_dev', name: 'dev', role: 'developer' },
};

describe('operatorMayDecide', () => {
  it.each([
    ['a pending gate open to developers', {}, true],
    ['a gate that needs a tech lead', { minRole: 'tech_lead' as const }, false],
    ['a gate assigned to someone else', { assignees: ['user_lead'] }, false],
    ['a gate assigned to the operator', { assignees: ['user_dev'] }, true],
    ['a gate that needs a signed decision', { signatureRequired: true }, false],
    [
      'a gate the operator requested, with separation of duties',
      { separationOfDuties: true, requestedBy: 'user_dev' },
      false,
    ],
    ['a gate that already ended', { status: 'approved' as const }, false],
  ])('%s → %s', (_label, overrides, expected) => {
    expect(operatorMayDecide(makeGate('tool_call', overrides), operator)).toBe(expected);
  });
});

describe('decisionForm', () => {
  it('offers only the options that end the gate, with the briefing and who answers', () => {
    const gate = makeGate('recovery_escalation', {
      options: RECOVERY_OPTIONS,
      action: { tool: 'shell', args: { command: 'make' } },
    });
    const form = decisionForm(gate, { summary: 'Recovery needs guidance' }, operator);
    expect(form.message).toContain('Gatehouse: Recovery needs guidance');
    expect(form.message).toContain('Answering as dev (developer)');
    expect(form.message).toContain('"command":"make"');
    const option = form.requestedSchema.properties.option as { oneOf: { const: string }[] };
    expect(option.oneOf.map((entry) => entry.const)).toEqual([
      'approve',
      'reject',
      'retry',
      'delegate',
      'abort',
    ]);
    expect(form.requestedSchema.required).toEqual(['option']);
  });
});

describe('decisionForm with hidden characters', () => {
  it('shows them as markers under a warning, whatever part of the gate holds them', () => {
    const gate = makeGate('tool_call', {
      title: 'Send the \u202einvoice',
      action: { tool: 'invoice_\u202efdp.sh', args: { note: 'ok\u{e0041}' } },
    });
    const form = decisionForm(gate, null, operator);
    expect(form.message).toContain('Warning: This action contains hidden characters');
    expect(form.message).toContain('Gatehouse: Send the ⟨U+202E⟩invoice');
    expect(form.message).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(form.message).toContain('ok⟨U+E0041⟩');
    expect(form.message).not.toMatch(/\u202e|\u{e0041}/u);
  });
});

describe('decisionForm with gate-specific inputs', () => {
  it('asks for the agent of a Delegate, by name, in the shape of the negotiated version', () => {
    // As the catalog says: Delegate requires the agent to hand the task to.
    const options = RECOVERY_OPTIONS.map((option) =>
      option.id === 'delegate' ? { ...option, requires: ['delegateTo' as const] } : option,
    );
    const gate = makeGate('recovery_escalation', { options });
    const agents = [{ id: 'agent_beta', label: 'beta' }];
    const latest = decisionForm(gate, null, operator, undefined, agents);
    expect(latest.requestedSchema.properties.delegateTo).toMatchObject({
      type: 'string',
      oneOf: [{ const: 'agent_beta', title: 'beta' }],
    });
    expect(latest.requestedSchema.properties.newLimit).toBeUndefined();
    const older = decisionForm(gate, null, operator, '2025-06-18', agents);
    expect(older.requestedSchema.properties.delegateTo).toMatchObject({
      enum: ['agent_beta'],
      enumNames: ['beta'],
    });
    expect(older.requestedSchema.required).toEqual(['option']);
  });

  it('asks for no agent where no option delegates', () => {
    const form = decisionForm(makeGate('tool_call'), null, operator, undefined, [
      { id: 'agent_beta', label: 'beta' },
    ]);
    expect(form.requestedSchema.properties.delegateTo).toBeUndefined();
  });
});
