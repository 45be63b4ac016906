import { checkDecisionTargets, type GateOption } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { ApiError } from '../api/client.js';

/** The fields of the decision form a server error can point at. */
export type DecisionField =
  | 'reason'
  | 'feedback'
  | 'answer'
  | 'instructions'
  | 'artifacts'
  | 'remember'
  | 'signature'
  | 'delegateTo'
  | 'newLimit'
  | 'editedArgs'
  | 'whitelist';

export type FieldErrors = Partial<Record<DecisionField, string>>;

/** The free-text field of an option's reply box. */
export type ReplyField = 'reason' | 'feedback' | 'answer';

/** An option's own reply box: which field it fills and a label saying what the agent receives. */
export interface ReplyBox {
  field: ReplyField;
  label: string;
  hint: string;
  required: boolean;
  maxLength: number;
}

/** What a person typed or picked for one option. */
export interface ReplyValues {
  text: string;
  delegateTo: string;
  newLimit: string;
}

export const EMPTY_REPLY: ReplyValues = { text: '', delegateTo: '', newLimit: '' };

/** Options that hand the agent new instructions (steer, suggest) open the instructions form. */
export function needsInstructions(option: GateOption): boolean {
  return option.outcome === 'steered' || option.requires.includes('instructions');
}

/** The request field a server error names (`details.field`, else the first of `details.fields`). */
export function serverField(error: ApiError): string | null {
  if (error.field) return error.field;
  const fields = error.details.fields;
  if (!Array.isArray(fields)) return null;
  const first = fields[0] as { field?: unknown } | undefined;
  return typeof first?.field === 'string' ? first.field : null;
}

/** Which form field a server error belongs to, or null for errors about the whole decision. */
export function formFieldOf(error: ApiError): DecisionField | null {
  const field = serverField(error);
  if (field === null) return null;
  const direct: readonly string[] = [
    'reason',
    'feedback',
    'answer',
    'instructions',
    'signature',
    'delegateTo',
    'newLimit',
    'editedArgs',
  ];
  if (direct.includes(field)) return field as DecisionField;
  if (field.startsWith('editedArgs')) return 'editedArgs';
  if (field.startsWith('affectedArtifacts')) return 'artifacts';
  if (field.startsWith('remember')) return 'remember';
  if (field.startsWith('whitelist')) return 'whitelist';
  return null;
}

/** Errors that mean the gate ended before this decision: someone else (or the deadline) was first. */
export function isLostRace(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.code === 'GATE_ALREADY_DECIDED' ||
      error.code === 'GATE_EXPIRED' ||
      error.code === 'GATE_NOT_PENDING')
  );
}

/** The same rule the server applies: relative, inside the workspace, no `..`. */
export function isWorkspacePath(path: string): boolean {
  if (path.trim() === '' || path.length > 4096) return false;
  if (path.includes('\0') || /^[/\\~]/.test(path) || /^[a-zA-Z]:/.test(path)) return false;
  return !path.split(/[/\\]/).includes('..');
}

/** Paths typed into one field, separated by commas or new lines. */
export function splitPaths(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((path) => path.trim())
    .filter(Boolean);
}

/**
 * The reply box `option` gets, or null: instructions have the steer form and options that decide
 * nothing take no text. Required fields come first; else approvals carry feedback, the rest a reason.
 */
export function replyBoxOf(option: GateOption): ReplyBox | null {
  if (!option.ends || needsInstructions(option)) return null;
  const name = option.label;
  if (option.requires.includes('answer'))
    return {
      field: 'answer',
      label: 'Answer the agent receives',
      hint: 'Required. Sent to the agent word for word.',
      required: true,
      maxLength: 10_000,
    };
  if (
    option.requires.includes('feedback') ||
    (option.outcome === 'approved' && !option.requires.includes('reason'))
  )
    return {
      field: 'feedback',
      label:
        option.outcome === 'approved'
          ? `Feedback sent with the approval (${name})`
          : `Feedback sent with ${name}`,
      hint: option.requires.includes('feedback')
        ? 'Required. The agent reads it with the decision.'
        : 'Optional. The agent reads it with the decision.',
      required: option.requires.includes('feedback'),
      maxLength: 10_000,
    };
  return {
    field: 'reason',
    label: `Reason the agent is told (${name})`,
    hint: option.requires.includes('reason') ? 'Required.' : 'Optional.',
    required: option.requires.includes('reason'),
    maxLength: 2000,
  };
}

/** The reply box is open from the start: it is required, or a refusal, whose reason the agent needs most. */
export function replyOpenByDefault(option: GateOption): boolean {
  const box = replyBoxOf(option);
  return box !== null && (box.required || option.outcome === 'rejected');
}

// Core's own check, so the browser says exactly what the server would.
function targetError(
  gate: Gate,
  option: GateOption,
  targets: { delegateTo?: string; newLimit?: number },
): string | null {
  try {
    checkDecisionTargets(gate, option, targets);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^\w+: /, '');
  }
}

/** The request fields `option`'s own inputs add: its reply box's text, the delegate, the new limit. */
export function replyBody(
  option: GateOption,
  reply: ReplyValues,
): { reason?: string; feedback?: string; answer?: string; delegateTo?: string; newLimit?: number } {
  const box = replyBoxOf(option);
  const text = reply.text.trim();
  return {
    ...(box !== null && text !== '' ? { [box.field]: text } : {}),
    ...(option.requires.includes('delegateTo') ? { delegateTo: reply.delegateTo } : {}),
    ...(option.requires.includes('newLimit') ? { newLimit: parseLimit(reply.newLimit) } : {}),
  };
}

/** The limit typed for an expand-constraint option, as a number (NaN when it is not one). */
export function parseLimit(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** What the reviewer has to fill in before `option` can be sent; keys are the fields, values the messages. */
export function missingFields(
  gate: Gate,
  option: GateOption,
  values: { reply: ReplyValues; instructions: string },
  withInstructions: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  if (withInstructions && values.instructions.trim() === '')
    errors.instructions = `Instructions are required for ${option.label}: tell the agent what to do instead.`;
  const box = replyBoxOf(option);
  if (box?.required && values.reply.text.trim() === '')
    errors[box.field] =
      box.field === 'answer'
        ? 'Write the answer the agent receives.'
        : `${box.label} is required for ${option.label}.`;
  if (option.requires.includes('delegateTo')) {
    const message =
      values.reply.delegateTo === ''
        ? `Choose the agent that takes the task over.`
        : targetError(gate, option, { delegateTo: values.reply.delegateTo });
    if (message) errors.delegateTo = message;
  }
  if (option.requires.includes('newLimit')) {
    const limit = parseLimit(values.reply.newLimit);
    const message = Number.isNaN(limit)
      ? 'Enter the new limit as a number.'
      : targetError(gate, option, { newLimit: limit });
    if (message) errors.newLimit = message;
  }
  return errors;
}
