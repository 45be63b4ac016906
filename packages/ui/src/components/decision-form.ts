import type { GateOption } from 'gatehouse-hitl-core';
import { ApiError } from '../api/client.js';

/** The fields of the decision form a server error can point at. */
export type DecisionField = 'reason' | 'feedback' | 'instructions' | 'artifacts' | 'remember' | 'signature';

export type FieldErrors = Partial<Record<DecisionField, string>>;

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
  if (field === 'reason' || field === 'feedback' || field === 'instructions' || field === 'signature')
    return field;
  if (field.startsWith('affectedArtifacts')) return 'artifacts';
  if (field.startsWith('remember')) return 'remember';
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

/** What the reviewer has to fill in before `option` can be sent; keys are the fields, values the messages. */
export function missingFields(
  option: GateOption,
  values: { reason: string; feedback: string; instructions: string },
  withInstructions: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  if (withInstructions && values.instructions.trim() === '')
    errors.instructions = `Instructions are required for ${option.label}: tell the agent what to do instead.`;
  if (option.requires.includes('reason') && values.reason.trim() === '')
    errors.reason = `A reason is required for ${option.label}.`;
  if (option.requires.includes('feedback') && values.feedback.trim() === '')
    errors.feedback = `Feedback is required for ${option.label}.`;
  return errors;
}
