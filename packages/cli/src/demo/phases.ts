import type { CheckpointResult } from 'gatehouse-hitl-sdk';
import type { CodingAgentOptions } from './agent.js';
import {
  PHASE_1_RETROSPECTIVE,
  PHASE_2_RETROSPECTIVE,
  PLAN_DESIGN,
  PLAN_EPIC,
  PLAN_TASKS,
  planMarkdown,
  README_WITH_PLAN,
  SAMPLE_PROJECT,
  SLUGIFY,
  SLUGIFY_TEST,
} from './sample-project.js';
import { printable, type Step, type WaitingGate } from './steps.js';

/** What every request of the run carries. */
export type Ask = {
  runId: string;
  signal: AbortSignal;
  onGate: (gateId: string, gate: WaitingGate | null) => void;
};

const PLAN = 'Readable post URLs: add src/slugify.js and its test, run the tests, remove the stale build';

/** Commits what changed and pushes the phase branch, saying where it went. */
async function pushPhase(options: CodingAgentOptions, message: string): Promise<string | undefined> {
  await options.workspace.commit(message);
  const pushed = await options.workspace.push();
  if (pushed === null) return undefined;
  options.log(`    pushed ${pushed.branch} at ${pushed.commit.slice(0, 8)}`);
  return pushed.branch;
}

/** Writes PLAN.md (with any revisions) and the README that documents it, then pushes them. */
async function pushPlan(
  options: CodingAgentOptions,
  revisions: readonly string[],
): Promise<string | undefined> {
  await options.workspace.write('PLAN.md', planMarkdown(revisions));
  await options.workspace.write('README.md', README_WITH_PLAN);
  const what = revisions.length === 0 ? 'Plan readable post URLs' : 'Revise the plan after review';
  return pushPhase(options, what);
}

/**
 * Gate 0: the plan, with its design and tasks, goes to a person before any implementation; a
 * steered or rejected plan is revised once, and the answer goes into PLAN.md (`revisions`).
 */
async function approveIntent(
  options: CodingAgentOptions,
  step: Step,
  ask: Ask,
  revisions: string[],
): Promise<void> {
  const announce = (instructions: string | null) =>
    options.gate.request({
      ...ask,
      event: 'planning_complete',
      operation: instructions === null ? PLAN : `${PLAN} (revised: ${instructions})`,
      artifacts: ['PLAN.md', 'README.md'],
      context: { epic: PLAN_EPIC, design: PLAN_DESIGN, tasks: PLAN_TASKS, plan: 'PLAN.md' },
    });
  step.start('intent', 'planning_complete: a person approves the plan (Gate 0) before any implementation');
  const intent = await announce(null);
  step.answer('intent', intent);
  if (intent.outcome === 'approved') return;
  step.start('reintent', 'planning_complete again: the plan revised with the answer');
  const answer = intent.instructions ?? intent.reason ?? null;
  if (answer !== null) revisions.push(printable(answer));
  const again = await announce(answer);
  step.answer('reintent', again);
  if (again.outcome !== 'approved') throw new Error('the plan was not approved; nothing was implemented');
}

/** A phase checkpoint with its pushed branch: opens the branch's review, and waits when it freezes. */
async function checkpoint(
  options: CodingAgentOptions,
  ask: Ask,
  phase: { phase: number; type: 'strategic' | 'tactical'; jobComplete?: boolean },
  branch: string | undefined,
  retrospective: string,
): Promise<CheckpointResult> {
  const result = await options.gate.checkpoint({ ...ask, ...phase, branch, retrospective });
  const review = result.review;
  if (review?.mergeCommit) {
    options.log(`    review ${review.id}: squash-merged into main as ${review.mergeCommit.slice(0, 8)}`);
  } else if (review) {
    options.log(`    review ${review.id} of ${review.branch}: ${review.status}`);
  }
  return result;
}

/**
 * Phase 1 (strategic): the plan approved as intent (Gate 0), then written on `phase-1-strategic`,
 * pushed and reviewed as a pull request. `workspaceReady` settles once the run's repository is
 * cloned: true when its main already holds the sample project.
 */
export async function planPhase(
  options: CodingAgentOptions,
  step: Step,
  ask: Ask,
  workspaceReady: Promise<boolean>,
): Promise<void> {
  const { workspace } = options;
  step.start('read', 'read_file README.md (reads need no approval)');
  const read = await options.gate.request({ ...ask, tool: 'read_file', args: { path: 'README.md' } });
  step.answer('read', read);
  const revisions: string[] = [];
  await approveIntent(options, step, ask, revisions);
  // Pushed once the plan is approved: a run waiting on Gate 0 may not act, so its push would go unanalysed.
  const seeded = await workspaceReady;
  await workspace.startPhase({ phase: 1, type: 'strategic' });
  if (!seeded) {
    for (const [path, content] of Object.entries(SAMPLE_PROJECT)) await workspace.write(path, content);
    await workspace.commit('Import the sample project');
  }
  let branch = await pushPlan(options, revisions);
  step.start(
    'plan',
    `phase 1 (strategic) checkpoint: ${branch ?? 'the plan'} reviewed before implementation`,
  );
  const review = await checkpoint(
    options,
    ask,
    { phase: 1, type: 'strategic' },
    branch,
    PHASE_1_RETROSPECTIVE,
  );
  if (review.outcome) step.answer('plan', review.outcome);
  else options.log('    -> no freeze at this autonomy level; going on');
  if (review.outcome?.outcome !== 'request_changes') return;
  // Changes to a plan are reviewed again before any implementation: the same phase, on its next revision branch.
  step.start('replan', 'phase 1 (strategic) again: the plan revised with the feedback');
  await workspace.startPhase({ phase: 1, type: 'strategic', revision: 2 });
  const feedback = review.outcome.feedback ?? review.outcome.reason;
  revisions.push(printable(feedback ?? 'revised as the review asked'));
  branch = await pushPlan(options, revisions);
  const again = await checkpoint(
    options,
    ask,
    { phase: 1, type: 'strategic' },
    branch,
    PHASE_1_RETROSPECTIVE,
  );
  if (again.outcome) step.answer('replan', again.outcome);
  if (again.outcome && again.outcome.outcome !== 'approved') {
    throw new Error('the revised plan was not approved; nothing was implemented');
  }
}

/** Phase 2 (tactical) on `phase-2-tactical` from the merged main: the files, the tests, the cleanup. */
export async function implementPhase(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  const { gate, workspace } = options;
  const write = gate.withApproval((path: string, content: string) => workspace.write(path, content), {
    tool: 'write_file',
    args: (path, content) => ({ path, content }),
    // A person may edit the path or the content before approving; the agent writes what they approved.
    fromArgs: (edited) => [String(edited.path), String(edited.content)] as [string, string],
    mode: 'result',
    request: { ...ask, risk: 'medium' },
  });
  await workspace.startPhase({ phase: 2, type: 'tactical' });
  for (const [name, path, content] of [
    ['edit', 'src/slugify.js', SLUGIFY],
    ['test-file', 'test/slugify.test.js', SLUGIFY_TEST],
  ] as const) {
    step.start(name, `write_file ${path} (${content.split('\n').length} lines)`);
    const written = await write(path, content);
    step.answer(name, written.approval);
    if (written.ok)
      await workspace.commit(`Add ${written.approval.edited ? 'the approved edit of ' : ''}${path}`);
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
  await options.workspace.commit(`Run ${approved}`);
}

/** The confidence report, then phase 2 pushed for the final review; its approval squash-merges it into main. */
export async function finish(options: CodingAgentOptions, step: Step, ask: Ask): Promise<void> {
  step.start('confidence', 'report confidence 72/100 (below the threshold of 90: a person reviews)');
  const report = await options.gate.reportConfidence({
    ...ask,
    score: 72,
    reasons: ['the slug rules for non-Latin titles are a guess', 'only one test case'],
    wait: true,
  });
  if (report.outcome) step.answer('confidence', report.outcome);
  else options.log(`    -> not escalated (band ${report.band ?? 'unknown'})`);
  step.start('review', 'job complete: phase 2 pushed for the final review');
  const branch = await pushPhase(options, 'Phase 2 done');
  const review = await checkpoint(
    options,
    ask,
    { phase: 2, type: 'tactical', jobComplete: true },
    branch,
    PHASE_2_RETROSPECTIVE,
  );
  if (review.outcome) step.answer('review', review.outcome);
  else options.log('    -> no final review at this autonomy level');
}
