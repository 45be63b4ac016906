import { type GateOption, type KeyBinding, keyNeedsConfirmation } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { opensForm } from './DecisionOptions.js';
import { type ReplyValues, replyBoxOf } from './decision-form.js';

/** How an option was chosen: a click is deliberate, a single key can be a slip. */
export type ChosenBy = 'key' | 'click';

/** Why a decision waits for a second, explicit step before it is sent. */
export type Confirmation =
  | { kind: 'ends_task'; option: GateOption }
  | { kind: 'risky_key'; option: GateOption; risk: 'high' | 'critical'; reason: string }
  | { kind: 'discards_answer'; option: GateOption; answer: string };

/** The words of a confirmation dialog. */
export interface ConfirmationText {
  title: string;
  confirmLabel: string;
  danger: boolean;
  /** Enter confirms at once: the dialog opens on its confirm button, not on Cancel. */
  focusConfirm: boolean;
  lines: string[];
}

/**
 * Whether `binding` needs a second step before it is sent, and which: an option that ends the agent's
 * task; a refusal that would throw away an answer already typed; a key that approves or rejects a
 * high or critical gate (a click is deliberate and goes at once).
 */
export function confirmationFor(input: {
  gate: Pick<Gate, 'risk' | 'options'>;
  binding: KeyBinding;
  by: ChosenBy;
  replyOf(option: GateOption): ReplyValues;
}): Confirmation | null {
  const { gate, binding, by, replyOf } = input;
  const { option } = binding;
  if (!binding.ends) return null;
  if (binding.confirm) return { kind: 'ends_task', option };
  if (option.outcome === 'rejected') {
    const answer = gate.options.find(
      (other) =>
        other.id !== option.id && replyBoxOf(other)?.field === 'answer' && replyOf(other).text.trim(),
    );
    if (answer) return { kind: 'discards_answer', option, answer: replyOf(answer).text.trim() };
  }
  const decisive = option.outcome === 'approved' || option.outcome === 'rejected';
  if (by === 'key' && decisive && !opensForm(option) && keyNeedsConfirmation(gate.risk)) {
    return { kind: 'risky_key', option, risk: gate.risk, reason: replyOf(option).text.trim() };
  }
  return null;
}

/** What the dialog of `confirmation` says, and which of its buttons has the focus. */
export function confirmationText(confirmation: Confirmation): ConfirmationText {
  const { option } = confirmation;
  switch (confirmation.kind) {
    case 'ends_task':
      return {
        title: `${option.label} ends the agent's task`,
        confirmLabel: `${option.label} the task`,
        danger: true,
        focusConfirm: false,
        lines: [option.description, 'The agent stops working on this task; this cannot be undone from here.'],
      };
    case 'discards_answer':
      return {
        title: `${option.label} and discard your answer?`,
        confirmLabel: `${option.label} and discard the answer`,
        danger: true,
        focusConfirm: false,
        lines: [
          `Your typed answer is not sent: “${confirmation.answer}”.`,
          'To send it instead, cancel and use Send answer (or Ctrl+Enter in the answer).',
        ],
      };
    case 'risky_key': {
      const approves = option.outcome === 'approved';
      const reason = confirmation.reason;
      return {
        title: `${option.label} a ${confirmation.risk}-risk action?`,
        confirmLabel: option.label,
        danger: !approves,
        focusConfirm: true,
        lines: [
          approves
            ? 'The agent goes ahead as proposed; this cannot be undone from here.'
            : reason
              ? `The agent is told not to go ahead, with your reason: “${reason}”.`
              : 'The agent is told not to go ahead; no reason is sent.',
          'Enter confirms, Escape cancels.',
        ],
      };
    }
  }
}
