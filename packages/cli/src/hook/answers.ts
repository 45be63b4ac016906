import { type CallFacts, failClosed, type PreToolUseOutput } from 'gatehouse-hitl-protocol/rules';
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

/** The settings a failure answer names. */
interface SettingsFacts {
  url: string;
  runId: string | null;
  budgetMs: number;
}

function refusalAnswer(call: CallFacts, error: ServerRefused, settings: SettingsFacts): PreToolUseOutput {
  const what = `${error.code}: ${error.message}`;
  switch (error.code) {
    case 'UNAUTHENTICATED':
      return failClosed(
        call,
        `Gatehouse refused the hook's agent token (${what})`,
        'Tell the user to set GATEHOUSE_TOKEN to a valid agent token.',
      );
    case 'FORBIDDEN':
      return failClosed(
        call,
        `Gatehouse refused the request (${what})`,
        'Tell the user: GATEHOUSE_TOKEN must be an agent token (gha_…) and GATEHOUSE_RUN_ID a run of that agent.',
      );
    case 'RUN_STOPPED':
      return failClosed(
        call,
        `a person stopped run ${settings.runId}`,
        'Stop working on this task and tell the user.',
      );
    case 'RUN_NOT_ACTIVE':
      return error.details.status === 'paused'
        ? failClosed(
            call,
            `a person paused run ${settings.runId}`,
            'Retry the same call later, after the run is resumed.',
          )
        : failClosed(
            call,
            `run ${settings.runId} is not active (${what})`,
            'Tell the user to start a new run (GATEHOUSE_RUN_ID).',
          );
    default:
      return failClosed(call, `Gatehouse could not decide this call (${what})`, 'Tell the user.');
  }
}

/** Why Gatehouse gave no answer, as a denial: the hook fails closed. */
export function failureAnswer(call: CallFacts, error: unknown, settings: SettingsFacts): PreToolUseOutput {
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
