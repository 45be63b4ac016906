import { MAX_NEW_LIMIT } from 'gatehouse-hitl-protocol/rules';
import { invalidField } from '../invalid-field.js';
import type { Gate, GateOption } from '../schemas.js';

export { MAX_NEW_LIMIT };

/** Where a delegate or expand-constraint decision points: the agent that takes over, the new limit. */
export interface DecisionTargets {
  /** Id of the agent that takes the task over (option `delegate`). */
  delegateTo?: string | undefined;
  /** The limit the task may use from now on (option `expand_constraint`). */
  newLimit?: number | undefined;
}

/** The constraint's current limit when the agent stated one as a number; a new limit must exceed it. */
export function currentLimitOf(gate: Gate): number | null {
  for (const key of ['currentLimit', 'limit']) {
    const value = gate.context[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
}

function checkDelegate(gate: Gate, option: GateOption, delegateTo: string | undefined): void {
  const wanted = option.requires.includes('delegateTo');
  if (!wanted) {
    if (delegateTo !== undefined)
      throw invalidField('delegateTo', `only a delegate option takes delegateTo (got option "${option.id}")`);
    return;
  }
  if (delegateTo === undefined || delegateTo.trim() === '')
    throw invalidField(
      'delegateTo',
      `option "${option.id}" needs the id of the agent that takes the task over`,
    );
  if (delegateTo === gate.agentId)
    throw invalidField(
      'delegateTo',
      `delegateTo must be a different agent than the one that asked (${delegateTo})`,
    );
}

function checkNewLimit(gate: Gate, option: GateOption, newLimit: number | undefined): void {
  const wanted = option.requires.includes('newLimit');
  if (!wanted) {
    if (newLimit !== undefined)
      throw invalidField(
        'newLimit',
        `only an expand-constraint option takes newLimit (got option "${option.id}")`,
      );
    return;
  }
  if (newLimit === undefined) throw invalidField('newLimit', `option "${option.id}" needs the new limit`);
  if (!Number.isFinite(newLimit) || newLimit <= 0 || newLimit > MAX_NEW_LIMIT)
    throw invalidField('newLimit', `newLimit must be above 0 and at most ${MAX_NEW_LIMIT} (got ${newLimit})`);
  const current = currentLimitOf(gate);
  if (current !== null && newLimit <= current)
    throw invalidField('newLimit', `newLimit must be above the current limit ${current} (got ${newLimit})`);
}

/**
 * Checks a decision's delegate and new limit against the chosen option: required where the option
 * needs them, refused elsewhere; the delegate differs from the asking agent, the limit is positive,
 * bounded and above the constraint's current limit when the gate states one.
 */
export function checkDecisionTargets(gate: Gate, option: GateOption, targets: DecisionTargets): void {
  checkDelegate(gate, option, targets.delegateTo);
  checkNewLimit(gate, option, targets.newLimit);
}
