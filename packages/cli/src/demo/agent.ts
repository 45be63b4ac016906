import type { Gatehouse, GateResult, RunEvent } from 'gatehouse-hitl-sdk';
import type { Workspace } from './workspace.js';

/** One line of what the agent is doing, for the terminal or a test. */
export type Log = (line: string) => void;

/** What the scripted agent works with. */
export interface CodingAgentOptions {
  gate: Gatehouse;
  workspace: Workspace;
  log: Log;
  /** Aborting stops the agent wherever it waits. */
  signal?: AbortSignal;
}

/** What happened at each step, by step name. */
export type StepOutcomes = Record<string, string>;

const SLUGIFY = `/** Lowercase, ASCII-only, words joined by dashes. */
export function slugify(title) {
  return title
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

const SLUGIFY_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slugify.js';

test('slugify joins words with dashes', () => {
  assert.equal(slugify('Hello, Wörld!'), 'hello-world');
});
`;

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
function stepper(log: Log, outcomes: StepOutcomes) {
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
    waiting(gateId: string, type: string | null) {
      log(`    gate ${gateId}${type ? ` (${type})` : ''} is waiting for a person:`);
      log(`      answer it in \`gatehouse inbox\`, or POST /v1/gates/${gateId}/decide`);
    },
  };
}

function watchInterventions(options: CodingAgentOptions, runId: string, stop: AbortController): () => void {
  return options.gate.onIntervention(
    runId,
    (event: RunEvent) => {
      const instruction = event.instruction ? `: ${printable(event.instruction)}` : '';
      options.log(`    !! intervention ${event.kind}${instruction}`);
      if (event.kind === 'stop') stop.abort(new Error('the run was stopped by a person'));
    },
    { onError: (error) => options.log(`    (interventions unavailable: ${String(error)})`) },
  );
}

/**
 * Runs the scripted job: the plan's intent approval (Gate 0), phase review, edits, tests, a cleanup,
 * a confidence report and the final review — asking Gatehouse before each step and printing every answer.
 */
export async function runCodingAgent(options: CodingAgentOptions): Promise<StepOutcomes> {
  const { gate, workspace, log } = options;
  const outcomes: StepOutcomes = {};
  const step = stepper(log, outcomes);
  const run = await gate.createRun({
    autonomy: 'partial',
    title: 'Add a slugify helper with tests',
    signal: options.signal,
  });
  log(
    `run ${run.id} started (autonomy ${run.autonomy}, approval mode ${run.approvalMode}) in ${workspace.dir}`,
  );
  const stop = new AbortController();
  const unsubscribe = watchInterventions(options, run.id, stop);
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const ask = {
    runId: run.id,
    signal,
    onGate: (id: string, g: { type: string } | null) => step.waiting(id, g?.type ?? null),
  };
  try {
    await planPhase(options, step, ask);
    await implementPhase(options, step, ask);
    await finish(options, step, ask);
    await gate.completeRun(run.id, { signal: ask.signal, onGate: ask.onGate });
    log(`\nrun ${run.id} completed`);
    return outcomes;
  } finally {
    unsubscribe();
  }
}

type Step = ReturnType<typeof stepper>;
type Ask = {
  runId: string;
  signal: AbortSignal;
  onGate: (gateId: string, gate: { type: string } | null) => void;
};

const PLAN = 'Add a slugify helper: src/slugify.js, a test for it, then run the tests';

/** Gate 0: the plan goes to a person before any implementation; a steered or rejected plan is revised once. */
async function approveIntent(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  const announce = (instructions: string | null) =>
    options.gate.request({
      ...ask,
      event: 'planning_complete',
      operation: instructions === null ? PLAN : `${PLAN} (revised: ${instructions})`,
      artifacts: ['README.md'],
    });
  step.start('intent', 'planning_complete: a person approves the plan (Gate 0) before any implementation');
  const intent = await announce(null);
  step.answer('intent', intent);
  if (intent.outcome === 'approved') return;
  step.start('reintent', 'planning_complete again: the plan revised with the answer');
  const again = await announce(intent.instructions ?? intent.reason ?? null);
  step.answer('reintent', again);
  if (again.outcome !== 'approved') throw new Error('the plan was not approved; nothing was implemented');
}

async function planPhase(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  step.start('read', 'read_file README.md (reads need no approval)');
  const read = await options.gate.request({ ...ask, tool: 'read_file', args: { path: 'README.md' } });
  step.answer('read', read);
  await approveIntent(options, step, ask);
  step.start('plan', 'phase 1 (strategic) checkpoint: plan = add src/slugify.js, add a test, run the tests');
  await options.workspace.checkout('phase-1-strategic');
  const review = await options.gate.checkpoint({ ...ask, phase: 1, type: 'strategic' });
  if (review.outcome) step.answer('plan', review.outcome);
  else options.log('    -> no freeze at this autonomy level; going on');
  if (review.outcome?.outcome !== 'request_changes') return;
  // Changes to a plan are reviewed again before any implementation: the same phase, checkpointed anew.
  step.start('replan', 'phase 1 (strategic) again: the plan revised with the feedback');
  const again = await options.gate.checkpoint({ ...ask, phase: 1, type: 'strategic' });
  if (again.outcome) step.answer('replan', again.outcome);
}

async function implementPhase(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  const { gate, workspace } = options;
  const write = gate.withApproval((path: string, content: string) => workspace.write(path, content), {
    tool: 'write_file',
    args: (path, content) => ({ path, content }),
    // A person may edit the path or the content before approving; the agent writes what they approved.
    fromArgs: (edited) => [String(edited.path), String(edited.content)] as [string, string],
    mode: 'result',
    request: { ...ask, risk: 'medium' },
  });
  await workspace.checkout('phase-2-tactical');
  for (const [name, path, content] of [
    ['edit', 'src/slugify.js', SLUGIFY],
    ['test-file', 'test/slugify.test.js', SLUGIFY_TEST],
  ] as const) {
    step.start(name, `write_file ${path} (${content.split('\n').length} lines)`);
    const written = await write(path, content);
    step.answer(name, written.approval);
    if (written.ok) await workspace.commit(`Add ${path}`);
  }
  await shell(options, step, ask, 'tests', 'npm test');
  await shell(options, step, ask, 'cleanup', 'rm -rf build');
}

async function shell(
  options: CodingAgentOptions,
  step: Step,
  ask: Ask,
  name: string,
  command: string,
): Promise<void> {
  step.start(name, `shell_execute \`${command}\``);
  const answer = await options.gate.request({ ...ask, tool: 'shell_execute', args: { command } });
  step.answer(name, answer);
  if (answer.outcome !== 'approved') return;
  // An edited approval runs the person's command, never the one first proposed.
  const approved = answer.edited ? String(answer.args?.command) : command;
  await options.gate.consume(
    answer,
    { tool: 'shell_execute', args: { command: approved } },
    { signal: ask.signal },
  );
  const result = await options.workspace.run(approved);
  const tail = result.output.split('\n').slice(-3).join(' / ');
  options.log(
    `    ran \`${printable(approved)}\`: exit ${result.exitCode}${tail ? ` (${printable(tail)})` : ''}`,
  );
}

async function finish(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  step.start('confidence', 'report confidence 72/100 (below the threshold of 90: a person reviews)');
  const report = await options.gate.reportConfidence({
    ...ask,
    score: 72,
    reasons: ['the slug rules for non-Latin titles are a guess', 'only one test case'],
    wait: true,
  });
  if (report.outcome) step.answer('confidence', report.outcome);
  else options.log(`    -> not escalated (band ${report.band ?? 'unknown'})`);
  step.start('review', 'job complete: final phase review');
  await options.workspace.commit('Phase 2 done');
  const review = await options.gate.checkpoint({ ...ask, phase: 2, type: 'tactical', jobComplete: true });
  if (review.outcome) step.answer('review', review.outcome);
  else options.log('    -> no final review at this autonomy level');
}
