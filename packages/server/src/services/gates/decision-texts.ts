import { decideBodySchema } from 'gatehouse-hitl-protocol';
import type { DecideInput } from '../types.js';
import { invalidInput } from './gate-input.js';

const decisionTexts = decideBodySchema.pick({
  reason: true,
  feedback: true,
  instructions: true,
  answer: true,
});

/**
 * Slack forms and emailed pages reach the gate service without the API's route: they check their
 * free texts with the route's own schema, so the limits and their words are the API's.
 */
export function checkDecisionTexts(
  input: Pick<DecideInput, 'reason' | 'feedback' | 'instructions' | 'answer'>,
): void {
  const parsed = decisionTexts.safeParse({
    reason: input.reason,
    feedback: input.feedback,
    instructions: input.instructions,
    answer: input.answer,
  });
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw invalidInput(String(issue?.path[0] ?? 'reason'), issue?.message ?? 'is not valid');
}
