import {
  type CallFacts,
  failClosed,
  type HookSettingsFacts,
  type PreToolUseOutput,
  refusalAnswer,
} from 'gatehouse-hitl-protocol/rules';
import { OutOfTime, ServerRefused, Unreachable } from './hook-http.js';

// The wording is shared with the server's HTTP hook; it lives in the protocol package.
export type { CallFacts, DecisionView, GateView, PreToolUseOutput } from 'gatehouse-hitl-protocol/rules';
export {
  allow,
  allowedByPolicy,
  approvalUsed,
  approved,
  deniedByPolicy,
  deny,
  ended,
  failClosed,
  pending,
  runSteered,
  steered,
} from 'gatehouse-hitl-protocol/rules';

/** Why Gatehouse gave no answer, as a denial: the hook fails closed. */
export function failureAnswer(
  call: CallFacts,
  error: unknown,
  settings: HookSettingsFacts,
): PreToolUseOutput {
  if (error instanceof ServerRefused) return refusalAnswer(call, error, settings);
  if (error instanceof OutOfTime) {
    return failClosed(
      call,
      `Gatehouse did not answer within ${settings.budgetMs} ms`,
      'Retry the same call in a moment.',
    );
  }
  if (error instanceof Unreachable) {
    return failClosed(
      call,
      `the Gatehouse server at ${settings.url} is unreachable (${error.message})`,
      'Do not work around it; tell the user that Gatehouse is not running or not reachable.',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return failClosed(call, `the Gatehouse hook failed (${message})`, 'Tell the user.');
}
