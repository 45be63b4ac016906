import { describe, expect, it } from 'vitest';
import { BUILTIN_GATE_TYPES } from '../gate-types/index.js';
import type { Gate } from '../schemas.js';
import { makeGate } from '../testing/gates.js';
import {
  bindingForKey,
  decisionKeys,
  HELP_KEY,
  isTaskEnding,
  keyHelpLines,
  keyNeedsConfirmation,
} from './decision-keys.js';

function gateOf(type: string, overrides: Partial<Gate> = {}): Gate {
  const definition = BUILTIN_GATE_TYPES.find((each) => each.type === type)!;
  return makeGate(type, {
    options: [...definition.options],
    action: { tool: 'shell', args: { command: 'make lint' } },
    ...overrides,
  });
}

const keysOf = (gate: Gate) => decisionKeys(gate).map((binding) => `${binding.key} ${binding.option.id}`);

describe('decisionKeys', () => {
  it.each([
    ['tool_call', ['a approve', 'w approve_always', 'r reject', 's steer']],
    ['intent_approval', ['a approve', 'r reject_rollback', 's steer']],
    ['constraint_exception', ['1 expand_constraint', '2 reduce_scope', '3 abort']],
    ['recovery_escalation', ['a approve', 'r reject', '1 retry', '2 view', '3 delegate', '4 abort']],
    [
      'false_positive_override',
      ['1 legitimate', '2 violation', '3 needs_review', '4 diff', '5 history', '6 whitelist'],
    ],
    ['destructive_action', ['a approve', 'r reject', '1 view', '2 diff', '3 suggest', '4 abort']],
    ['phase_review', ['a approve', '1 request_changes']],
    ['deployment_approval', ['a approve', 'r reject', 's steer']],
  ])('gives %s the one key map', (type, expected) => {
    expect(keysOf(gateOf(type))).toEqual(expected);
  });

  it('matches the keys the catalog ships for every built-in type', () => {
    for (const definition of BUILTIN_GATE_TYPES) {
      const bindings = decisionKeys(
        makeGate(definition.type, { options: [...definition.options], action: { tool: 't', args: {} } }),
      );
      expect(bindings.map((binding) => binding.key)).toEqual(definition.options.map((option) => option.key));
    }
  });

  it('leaves Always out where the server would refuse it', () => {
    const gate = gateOf('tool_call', { action: { tool: 'shell', args: { command: 'rm -rf build' } } });
    expect(keysOf(gate)).toEqual(['a approve', 'r reject', 's steer']);
    expect(bindingForKey(gate, 'w')).toBeNull();
  });

  it('never lets a show-more option end a gate or ask for confirmation', () => {
    const view = bindingForKey(gateOf('recovery_escalation'), '2');
    expect(view).toMatchObject({ ends: false, confirm: false, option: { id: 'view' } });
  });

  it('asks to confirm the options that end the task', () => {
    const gate = gateOf('recovery_escalation');
    expect(bindingForKey(gate, '4')).toMatchObject({ option: { id: 'abort' }, confirm: true });
    expect(bindingForKey(gate, '3')).toMatchObject({ option: { id: 'delegate' }, confirm: true });
    expect(bindingForKey(gate, 'a')).toMatchObject({ confirm: false });
    expect(isTaskEnding({ id: 'abort', ends: true })).toBe(true);
    expect(isTaskEnding({ id: 'abort', ends: false })).toBe(false);
  });

  it('matches keys exactly: no letter means two things, upper case picks nothing', () => {
    const gate = gateOf('recovery_escalation');
    expect(bindingForKey(gate, 'A')).toBeNull();
    expect(bindingForKey(gate, 'd')).toBeNull();
    expect(bindingForKey(gate, 'v')).toBeNull();
    expect(bindingForKey(gate, 'q')).toBeNull();
    expect(bindingForKey(gate, HELP_KEY)).toBeNull();
  });

  it('lists every key with what it does, marking the ones that ask first', () => {
    expect(keyHelpLines(gateOf('recovery_escalation'))).toEqual([
      'a  Approve: Override and let the agent continue with your guidance',
      'r  Reject: Require a manual fix from a person',
      '1  Retry: Reset the recovery counter and give the agent another chance',
      '2  View: Show the detailed recovery attempt logs (shows more, decides nothing)',
      '3  Delegate: Assign the task to a different agent (ends the task; asks to confirm)',
      '4  Abort: Stop the task entirely and clean up (ends the task; asks to confirm)',
      '?  These keys',
    ]);
  });

  it('copes with gates whose options are missing', () => {
    expect(decisionKeys({ ...makeGate('x'), options: undefined } as unknown as Gate)).toEqual([]);
  });
});

describe('keyNeedsConfirmation', () => {
  it.each([
    ['low', false],
    ['medium', false],
    ['high', true],
    ['critical', true],
  ] as const)('a single key on a %s gate asks first: %s', (risk, asks) => {
    expect(keyNeedsConfirmation(risk)).toBe(asks);
  });
});
