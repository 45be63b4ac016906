import type { GateResult } from 'gatehouse-hitl-sdk';

/** One line of what the agent is doing, for the terminal or a test. */
export type Log = (line: string) => void;

/** What happened at each step, by step name. */
export type StepOutcomes = Record<string, string>;

/** Escapes control characters so text from people cannot drive the terminal. */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => {
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    },
  );
}

/** One line for an answer: the outcome and whatever came with it. */
export function describe(result: GateResult): string {
  const by =
    result.decidedBy === 'policy'
      ? `by policy rule ${result.ruleId ?? '(default)'}`
      : `by ${result.decidedBy}`;
  const parts = [`${result.outcome} ${by}`];
  if (result.reason) parts.push(`reason: ${printable(result.reason)}`);
  if (result.instructions) parts.push(`instructions: ${printable(result.instructions)}`);
  if (result.feedback) parts.push(`feedback: ${printable(result.feedback)}`);
  return parts.join(' | ');
}

/** What the scripted agent does with an answer other than approved. */
const NOTES: Record<string, string> = {
  denied: 'skipping this step',
  steered: 'skipping this step; the instructions go into the next plan',
  timed_out: 'nobody answered in time; skipping this step',
  request_changes: 'revising the plan with the feedback for another review',
};

/** The step runner: numbered steps, each printing what it asks and the answer. */
/** What the agent knows of a gate it waits on. */
export interface WaitingGate {
  type: string;
  context?: Record<string, unknown>;
}

export function stepper(log: Log, outcomes: StepOutcomes) {
  let number = 0;
  return {
    start(name: string, what: string) {
      number++;
      log(`\n[${number}] ${name}: ${what}`);
    },
    answer(name: string, result: GateResult) {
      outcomes[name] = result.outcome;
      log(`    -> ${describe(result)}`);
      // A gate cancelled under the agent means its run was stopped: nothing more may happen.
      if (result.outcome === 'cancelled')
        throw new Error(`${name} was cancelled: ${result.reason ?? 'no reason'}`);
      const note = NOTES[result.outcome];
      if (note) log(`    ${note}`);
    },
    waiting(gateId: string, gate: WaitingGate | null) {
      log(`    gate ${gateId}${gate ? ` (${gate.type})` : ''} is waiting for a person:`);
      log(`      answer it in \`gatehouse inbox\`, or POST /v1/gates/${gateId}/decide`);
      const reviewId = gate?.context?.reviewId;
      // A phase review's pull request: the branch's diff to read before Approve & merge.
      if (typeof reviewId === 'string')
        log(`      its review (files and diff): /reviews/${reviewId} in the web app`);
    },
  };
}

export type Step = ReturnType<typeof stepper>;
