import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGatehouseError } from '../errors.js';
import { makeGate, RECOVERY_OPTIONS } from '../testing/gates.js';
import { approvesAction, assertNotAgentOwner, separatesAgentOwner } from './separation-of-duties.js';

const options = [
  {
    id: 'approve',
    label: 'A',
    key: 'a',
    description: '',
    ends: true,
    outcome: 'approved' as const,
    requires: [],
  },
  {
    id: 'reject',
    label: 'R',
    key: 'r',
    description: '',
    ends: true,
    outcome: 'rejected' as const,
    requires: [],
  },
  {
    id: 'steer',
    label: 'S',
    key: 's',
    description: '',
    ends: true,
    outcome: 'steered' as const,
    requires: [],
  },
  ...RECOVERY_OPTIONS.filter((option) => option.id === 'retry' || option.id === 'view'),
];

function refuses(input: Parameters<typeof assertNotAgentOwner>[0]): boolean {
  try {
    assertNotAgentOwner(input);
    return false;
  } catch (error) {
    if (isGatehouseError(error) && error.code === 'OWNER_APPROVAL') return true;
    throw error;
  }
}

describe('separation of duties from the agent owner', () => {
  it('is on when asked for, and on for signed gates unless their rule switches it off', () => {
    expect(separatesAgentOwner({ separationOfDuties: false, signatureRequired: true })).toBe(true);
    expect(separatesAgentOwner({ separationOfDuties: false, signatureRequired: true }, false)).toBe(false);
    expect(separatesAgentOwner({ separationOfDuties: true, signatureRequired: false })).toBe(true);
    expect(separatesAgentOwner({ separationOfDuties: false, signatureRequired: false })).toBe(false);
  });

  it('refuses the owner approving, with OWNER_APPROVAL naming the gate', () => {
    const gate = makeGate('destructive_action', { options, signatureRequired: true });
    expect(() =>
      assertNotAgentOwner({ gate, option: 'approve', deciderId: 'user_o', agentOwnerId: 'user_o' }),
    ).toThrow(/gate_destructive_action needs separation of duties/);
  });

  it('refuses exactly when it applies, the decider owns the agent and the option lets the action go ahead', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.constantFrom(...options.map((option) => option.id), 'unknown'),
        fc.constantFrom('user_a', 'user_b'),
        fc.option(fc.constantFrom('user_a', 'user_b'), { nil: null }),
        (separationOfDuties, signatureRequired, ruleSetting, option, deciderId, agentOwnerId) => {
          const gate = makeGate('recovery', { options, separationOfDuties, signatureRequired });
          const expected =
            (separationOfDuties || (signatureRequired && ruleSetting !== false)) &&
            agentOwnerId === deciderId &&
            approvesAction(gate, option);
          expect(refuses({ gate, ruleSetting, option, deciderId, agentOwnerId })).toBe(expected);
        },
      ),
    );
  });

  it('counts approved and resolved options as approving, never reject, steer or view', () => {
    const gate = makeGate('recovery', { options });
    expect(options.filter((option) => approvesAction(gate, option.id)).map((option) => option.id)).toEqual([
      'approve',
      'retry',
    ]);
  });
});
