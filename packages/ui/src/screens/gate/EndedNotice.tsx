import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { optionLabel, STATUS_LABEL } from '../../components/gate-labels.js';
import { formatDateTime } from '../../components/time-format.js';

/**
 * Why an ended gate takes no more decisions: who decided first and what they chose, the deadline,
 * or a cancellation. Announced when it happens while the page is open.
 */
export function EndedNotice({
  gate,
  myId,
  nameOf,
  live,
}: {
  gate: Gate;
  myId: string;
  nameOf(id: string): string;
  /** The gate ended while this page showed it pending (or a decision here lost the race). */
  live: boolean;
}) {
  const decision = gate.decision;
  let text: string;
  if (decision === null) text = `This gate is ${STATUS_LABEL[gate.status].toLowerCase()}.`;
  else if (decision.decidedBy === 'system:timeout') {
    text = `This gate timed out at ${formatDateTime(decision.decidedAt)}: ${gate.status === 'approved' ? 'the agent proceeded on its own' : 'the request was denied'}.`;
  } else if (gate.status === 'cancelled') {
    text = `This gate was cancelled${decision.reason ? `: ${decision.reason}` : ''}.`;
  } else if (decision.decidedBy === myId) {
    text = `You already decided this gate: ${optionLabel(gate, decision.option)} (${STATUS_LABEL[gate.status].toLowerCase()}).`;
  } else {
    text = `This gate was already decided by ${nameOf(decision.decidedBy)}: ${optionLabel(gate, decision.option)} (${STATUS_LABEL[gate.status].toLowerCase()}) at ${formatDateTime(decision.decidedAt)}.`;
  }
  return (
    <p className="notice warn ended-notice" role={live ? 'alert' : undefined}>
      {text}
    </p>
  );
}
