import type { Action, GateOption } from '../schemas.js';

/** What decides whether a gate may be approved with edited arguments. */
export interface EditableInput {
  action: Action | null | undefined;
  requiredApprovals: number;
  options: readonly GateOption[];
  /** False when a policy rule forbids edits for the gate. */
  allowed?: boolean | undefined;
}

/** Why a gate of this shape cannot be edited, or null when it can. */
export function editRefusalReason(input: EditableInput): string | null {
  if (input.allowed === false) return 'the policy forbids edits for this gate';
  if (input.action == null || Object.keys(input.action.args).length === 0) {
    return 'the gate has no action arguments to edit';
  }
  if (input.requiredApprovals > 1) return `it needs ${input.requiredApprovals} approvals of the same action`;
  const approve = input.options.find((option) => option.id === 'approve');
  if (approve?.outcome !== 'approved') return 'the gate has no approve option';
  return null;
}

/** True when a person may approve the gate with edited arguments. */
export function isEditable(input: EditableInput): boolean {
  return editRefusalReason(input) === null;
}
