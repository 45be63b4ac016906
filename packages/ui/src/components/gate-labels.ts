import type { GateStatus } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import type { DecideResult } from '../api/gate-review.js';

export const STATUS_LABEL: Record<GateStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  steered: 'Steered',
  expired: 'Timed out',
  cancelled: 'Cancelled',
  resolved: 'Resolved',
};

/** The label of the option `id` on this gate (`timeout` and `cancel` included), else the id. */
export function optionLabel(gate: Pick<Gate, 'options'>, id: string): string {
  if (id === 'timeout') return 'Timeout';
  if (id === 'cancel') return 'Cancel';
  return gate.options.find((option) => option.id === id)?.label ?? id;
}

/** Said wherever a gate of a paused run shows, and after it is approved. */
export const PAUSED_RUN_NOTE = 'The run is paused: the agent goes ahead only when the run is resumed.';

const SCOPE_TEXT = { run: 'for this run', agent: 'for this agent', global: 'for every agent' } as const;

/** One sentence saying what the reviewer's decision did. */
export function outcomeMessage(result: DecideResult, myId: string): string {
  const { gate, decision, rule } = result;
  if (decision === null && gate.status === 'pending') {
    const votes = gate.approvals.length;
    if (gate.approvals.some((vote) => vote.by === myId)) {
      const more = gate.requiredApprovals - votes;
      return `Your approval is recorded: ${votes} of ${gate.requiredApprovals}. The gate waits for ${more} more approver${more === 1 ? '' : 's'}.`;
    }
    return 'Nothing was decided; the gate is still pending.';
  }
  const label = optionLabel(gate, decision?.option ?? '');
  switch (gate.status) {
    case 'approved':
      if (rule) {
        const until =
          rule.expiresAt === null ? 'until revoked' : `until ${new Date(rule.expiresAt).toLocaleString()}`;
        return `Approved, and ${rule.tool} is allowed ${SCOPE_TEXT[rule.scope]} ${until}.`;
      }
      if (decision?.editedArgs)
        return `${label}: approved with your edits. The agent runs the edited action.`;
      return `${label}: approved. The agent may go ahead.`;
    case 'rejected':
      return `${label}: rejected. The agent is told not to go ahead.`;
    case 'steered':
      return `${label}: steered. The agent receives your instructions as its next instruction.`;
    case 'resolved':
      return `${label}: recorded. The agent is told.`;
    default:
      return `The gate is now ${STATUS_LABEL[gate.status].toLowerCase()}.`;
  }
}
