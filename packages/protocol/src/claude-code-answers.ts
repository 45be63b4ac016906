// How Gatehouse words its answers to Claude Code, the same from the command hook and the server's HTTP hook.

/** Claude Code's `permissionDecision` for a `PreToolUse` hook. */
export type PermissionDecision = 'allow' | 'deny' | 'ask' | 'defer';

/** Claude Code's answer to a `PreToolUse` hook: printed as JSON (command hook) or the response body (HTTP hook). */
export interface PreToolUseOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: PermissionDecision;
    /** For `deny` Claude Code shows it to the model; for `allow` it goes to the debug log. */
    permissionDecisionReason: string;
    /** The arguments the tool runs with instead of the model's (a person's edited approval). */
    updatedInput?: Record<string, unknown>;
  };
  /** A line Claude Code shows to the person at the terminal. */
  systemMessage?: string;
}

function output(
  decision: PermissionDecision,
  reason: string,
  extra: { systemMessage?: string | undefined; updatedInput?: Record<string, unknown> | undefined } = {},
): PreToolUseOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
      ...(extra.updatedInput === undefined ? {} : { updatedInput: extra.updatedInput }),
    },
    ...(extra.systemMessage === undefined ? {} : { systemMessage: extra.systemMessage }),
  };
}

/** The tool call may run (with `updatedInput` instead of the model's arguments when given). */
export function allow(reason: string, updatedInput?: Record<string, unknown>): PreToolUseOutput {
  return output('allow', reason, { updatedInput });
}

/** The tool call must not run; `reason` tells the model why and what to do instead. */
export function deny(reason: string, systemMessage?: string): PreToolUseOutput {
  return output('deny', reason, { systemMessage });
}

/** The parts of a gate's decision the hooks pass on. */
export interface DecisionView {
  option: string;
  outcome: string;
  decidedBy: string;
  reason?: string | undefined;
  feedback?: string | undefined;
  instructions?: string | undefined;
  affectedArtifacts?: string[] | undefined;
  payloadHash?: string | undefined;
  editedArgs?: Record<string, unknown> | undefined;
}

/** The parts of a gate the hooks read. */
export interface GateView {
  id: string;
  status: string;
  payloadHash: string | null;
  decision: DecisionView | null;
}

/** What a hook knows about the call while it words an answer. */
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

/** The policy refused the call at once: the reason is the policy's, never a person's. */
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

/** A gate is open: Claude Code asks the person at the terminal while the gate stays open for remote answers. */
export function askPerson(call: CallFacts, gateId: string, reason: string): PreToolUseOutput {
  return output(
    'ask',
    `${PREFIX} ${call.tool} needs a person's approval (gate ${gateId}: ${reason}); answer here or in the Gatehouse inbox (${call.url}).`,
    { systemMessage: `Gatehouse: ${call.tool} needs approval (gate ${gateId})` },
  );
}

/** A gate is open in a headless run: the call is deferred until the run resumes and asks again. */
export function deferred(call: CallFacts, gateId: string, reason: string): PreToolUseOutput {
  return output(
    'defer',
    `${PREFIX} ${call.tool} waits for a person's approval (gate ${gateId}: ${reason}); resume the session after it is decided in the Gatehouse inbox (${call.url}).`,
  );
}

/** A person (or a timeout set to proceed) approved the call; an edited approval runs the person's arguments. */
export function approved(call: CallFacts, gate: GateView): PreToolUseOutput {
  const decision = gate.decision;
  const why = decision?.reason ? `: ${decision.reason}` : '';
  const feedback = decision?.feedback ? ` Feedback: ${decision.feedback}` : '';
  const edited = decision?.editedArgs;
  const note = edited === undefined ? '' : ' The person changed the arguments; the tool ran with theirs.';
  return allow(
    `${PREFIX} ${call.tool} approved by ${by(decision)} (gate ${gate.id})${why}.${feedback}${note}`,
    edited,
  );
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

/** The steer instructions among a request's interventions, in order. */
export function steerInstructions(
  interventions: readonly { kind: string; instruction: string | null }[] | undefined,
): string[] {
  return (interventions ?? [])
    .filter((notice) => notice.kind === 'steer' && typeof notice.instruction === 'string')
    .map((notice) => notice.instruction as string);
}
