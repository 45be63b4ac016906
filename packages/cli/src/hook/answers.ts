import { OutOfTime, ServerRefused, Unreachable } from './hook-http.js';

/** Claude Code's answer to a `PreToolUse` hook: printed as JSON on stdout with exit code 0. */
export interface PreToolUseOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny';
    /** For `deny` Claude Code shows it to the model; for `allow` it goes to the debug log. */
    permissionDecisionReason: string;
  };
  /** A line Claude Code shows to the person at the terminal. */
  systemMessage?: string;
}

/** The tool call may run. */
export function allow(reason: string): PreToolUseOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: reason,
    },
  };
}

/** The tool call must not run; `reason` tells the model why and what to do instead. */
export function deny(reason: string, systemMessage?: string): PreToolUseOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
    ...(systemMessage === undefined ? {} : { systemMessage }),
  };
}

/** The parts of a gate's decision the hook passes on. */
export interface DecisionView {
  option: string;
  outcome: string;
  decidedBy: string;
  reason?: string;
  feedback?: string;
  instructions?: string;
  affectedArtifacts?: string[];
}

/** The parts of a gate the hook reads. */
export interface GateView {
  id: string;
  status: string;
  payloadHash: string | null;
  decision: DecisionView | null;
}

/** What the hook knows about the call while it words an answer. */
export interface CallFacts {
  tool: string;
  url: string;
}

const PREFIX = 'Gatehouse:';

function by(decision: DecisionView | null): string {
  if (decision === null) return 'a person';
  return decision.decidedBy.startsWith('system:') ? 'Gatehouse' : decision.decidedBy;
}

function ruleLabel(ruleId: string | null): string {
  return ruleId === null ? 'default policy' : `rule ${ruleId}`;
}

/** Text from a person, fenced so the model can tell it apart from Gatehouse's own words. */
function fenced(label: string, text: string, artifacts: readonly string[] = []): string {
  const lines = [`----- BEGIN ${label} -----`, text, `----- END ${label} -----`];
  if (artifacts.length > 0) lines.push(`Files the instructions are about: ${artifacts.join(', ')}`);
  return lines.join('\n');
}

/** The policy let the call through at once. */
export function allowedByPolicy(call: CallFacts, ruleId: string | null, reason: string): PreToolUseOutput {
  return allow(`${PREFIX} ${call.tool} allowed by ${ruleLabel(ruleId)} (${reason}).`);
}

/** The policy refused the call at once. */
export function deniedByPolicy(call: CallFacts, ruleId: string | null, reason: string): PreToolUseOutput {
  return deny(
    `${PREFIX} this ${call.tool} call is denied by the policy (${ruleLabel(ruleId)}): ${reason} ` +
      'Do not retry it unchanged or work around it; choose another approach or ask the user.',
  );
}

/** No person has decided yet; the same call, retried later, finds the same gate. */
export function pending(call: CallFacts, gateId: string, reason: string): PreToolUseOutput {
  return deny(
    `${PREFIX} this ${call.tool} call needs a person's approval and was NOT run. ` +
      `Approval is pending (gate ${gateId}: ${reason}). ` +
      'Retry exactly the same call later to get the decision: the retry finds the same request. ' +
      'Meanwhile do not try to reach the same result another way; continue with other work, or tell ' +
      `the user that gate ${gateId} waits for them in the Gatehouse inbox (${call.url}).`,
    `Gatehouse: ${call.tool} waits for approval (gate ${gateId})`,
  );
}

/** A person (or a timeout set to proceed) approved the call. */
export function approved(call: CallFacts, gate: GateView): PreToolUseOutput {
  const decision = gate.decision;
  const why = decision?.reason ? `: ${decision.reason}` : '';
  const feedback = decision?.feedback ? ` Feedback: ${decision.feedback}` : '';
  return allow(`${PREFIX} ${call.tool} approved by ${by(decision)} (gate ${gate.id})${why}.${feedback}`);
}

/** A person answered with a steer: the call does not run and the model gets the instructions. */
export function steered(call: CallFacts, gate: GateView): PreToolUseOutput {
  const decision = gate.decision;
  const who = by(decision);
  return deny(
    `${PREFIX} ${who} did not approve this ${call.tool} call as it is and sent instructions instead ` +
      `(gate ${gate.id}). The call was NOT run. Do not retry it unchanged; follow the instructions below.\n` +
      fenced(`INSTRUCTIONS FROM ${who}`, decision?.instructions ?? '', decision?.affectedArtifacts ?? []),
  );
}

/** A person rejected the call, or the gate ended some other way than approval. */
export function ended(call: CallFacts, gate: GateView): PreToolUseOutput {
  const decision = gate.decision;
  const reason = decision?.reason ? ` Reason: ${decision.reason}` : '';
  const feedback = decision?.feedback ? ` Feedback: ${decision.feedback}` : '';
  switch (gate.status) {
    case 'rejected':
      return deny(
        `${PREFIX} ${by(decision)} rejected this ${call.tool} call (gate ${gate.id}); it was NOT run.${reason}${feedback} ` +
          'Do not retry it unchanged; choose another approach or ask the user.',
      );
    case 'expired':
      return deny(
        `${PREFIX} nobody decided on this ${call.tool} call in time (gate ${gate.id} timed out); it was NOT run. ` +
          'Retry the same call to ask again, or ask the user.',
      );
    case 'cancelled':
      return deny(
        `${PREFIX} the request for this ${call.tool} call was cancelled by ${by(decision)} (gate ${gate.id}); ` +
          `it was NOT run.${reason} Ask the user how to continue.`,
      );
    default:
      return deny(
        `${PREFIX} ${by(decision)} answered this ${call.tool} call with "${decision?.option ?? gate.status}" ` +
          `(gate ${gate.id}); it was NOT run.${reason}${feedback} Ask the user how to continue.`,
      );
  }
}

/** The approval was already used by an earlier run of the same call. */
export function approvalUsed(call: CallFacts, gateId: string): PreToolUseOutput {
  return deny(
    `${PREFIX} the approval of gate ${gateId} was already used by an earlier identical ${call.tool} call, ` +
      'so this one was NOT run. Retry the same call to ask a person again.',
  );
}

/** A person sent the run new instructions; they come before the call. */
export function runSteered(call: CallFacts, instructions: readonly string[]): PreToolUseOutput {
  return deny(
    `${PREFIX} a person sent new instructions for this run, so this ${call.tool} call was NOT run. ` +
      'Read them and continue accordingly.\n' +
      instructions.map((text, index) => fenced(`INSTRUCTION ${index + 1} FROM A PERSON`, text)).join('\n'),
  );
}

/** Gatehouse could not give an answer; the call is refused rather than let through. */
export function failClosed(call: CallFacts, problem: string, advice: string): PreToolUseOutput {
  return deny(
    `${PREFIX} ${problem}, so this ${call.tool} call was denied (Gatehouse fails closed). ${advice}`,
    `Gatehouse: ${problem}; tool calls are denied`,
  );
}

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
