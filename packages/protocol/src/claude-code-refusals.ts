// Answers for calls Gatehouse refused or could not decide, and for edits change analysis held back;
// shared by the command hook and the server's HTTP hook.
import {
  type CallFacts,
  deny,
  failClosed,
  type GateView,
  type PreToolUseOutput,
} from './claude-code-answers.js';
import type { FindingDocument } from './routes/analysis.js';

/** A refusal's code, message and details, from the wire (command hook) or the service (HTTP hook). */
export interface RefusalFacts {
  code: string;
  message: string;
  details: Readonly<Record<string, unknown>>;
}

/** The settings a failure answer names. */
export interface HookSettingsFacts {
  url: string;
  runId: string | null;
  budgetMs: number;
}

/** Gatehouse refused the call (token, run stopped or paused, bad input): a denial that says what to do. */
export function refusalAnswer(
  call: CallFacts,
  error: RefusalFacts,
  settings: HookSettingsFacts,
): PreToolUseOutput {
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

const LISTED_FINDINGS = 5;

function where(finding: FindingDocument): string {
  const line = finding.line === null ? '' : `:${finding.line}`;
  const name = finding.name === null ? '' : ` (${JSON.stringify(finding.name)})`;
  return `${finding.file}${line}${name}`;
}

/** The findings as lines the model can act on: which pattern, where, how sure. */
export function summariseFindings(findings: readonly FindingDocument[]): string {
  const lines = findings
    .slice(0, LISTED_FINDINGS)
    .map(
      (finding) =>
        `- ${finding.pattern} at ${where(finding)}, ${finding.severity}, confidence ${finding.confidence.toFixed(2)}: ${finding.message}`,
    );
  if (findings.length > LISTED_FINDINGS) lines.push(`- and ${findings.length - LISTED_FINDINGS} more`);
  return lines.join('\n');
}

function gateList(gates: readonly GateView[]): string {
  return gates.map((gate) => gate.id).join(', ');
}

/** Change analysis opened gates nobody has decided yet: the edit is not made. */
export function analysisPending(
  call: CallFacts,
  gates: readonly GateView[],
  summary: string,
): PreToolUseOutput {
  return deny(
    `Gatehouse: change analysis found that this ${call.tool} cuts corners, so it needs a person's ` +
      `approval and was NOT made. Approval is pending (gate ${gateList(gates)}). Findings:\n${summary}\n` +
      'Retry exactly the same call later to get the decision. Meanwhile do not make the same change ' +
      'another way: keep the tests, assertions and code it removes, or tell the user that the gate waits ' +
      `for them in the Gatehouse inbox (${call.url}).`,
    `Gatehouse: ${call.tool} waits for approval after change analysis (gate ${gateList(gates)})`,
  );
}

/** A gate change analysis opened ended without approval: the edit is not made. */
export function analysisRefused(call: CallFacts, gate: GateView, summary: string): PreToolUseOutput {
  const decision = gate.decision;
  const who =
    decision === null || decision.decidedBy.startsWith('system:') ? 'Gatehouse' : decision.decidedBy;
  const said = [decision?.reason, decision?.feedback, decision?.instructions]
    .filter((text): text is string => typeof text === 'string' && text !== '')
    .map((text) => `----- BEGIN WORDS FROM ${who} -----\n${text}\n----- END WORDS FROM ${who} -----`);
  return deny(
    `Gatehouse: ${who} did not approve this ${call.tool} after change analysis ` +
      `(gate ${gate.id}: ${decision?.option ?? gate.status}); it was NOT made. Findings:\n${summary}\n` +
      `Do not keep this change or make it another way; fix the code instead.${said.length > 0 ? `\n${said.join('\n')}` : ''}`,
  );
}
