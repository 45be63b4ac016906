import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type CheckpointResult,
  Gatehouse,
  isGatehouseApiError,
  type Journal,
  type ReviewDocument,
  type Run,
  type Workspace,
} from 'gatehouse-hitl-sdk';
import { answerComment, type CommentAnswer, commentsToAnswer } from './answer-comments.js';
import { PHASE_1_RETROSPECTIVE, PHASE_2_RETROSPECTIVE, PLAN_MD, resultMd, WORKSPACE_MD } from './content.js';

/** Options of `runPhaseReviewAgent`. */
export interface PhaseReviewAgentOptions {
  /** The Gatehouse server, e.g. http://127.0.0.1:7300. */
  url: string;
  /** An agent token (gha_…). */
  token: string;
  /** Work in this run; by default a new run is created. */
  runId?: string | undefined;
  /** Autonomy of a new run. @default 'partial' (phase 1 is reviewed, phase 2 merges at once) */
  autonomy?: 'full' | 'review' | 'partial' | 'guided' | 'dependent' | undefined;
  /** Where to clone the run's repository: a new or empty directory. */
  workDir: string;
  log: (line: string) => void;
  /** Revisions of one phase before the agent gives up. @default 5 */
  maxRevisions?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What happened to one phase. */
export interface PhaseReport {
  phase: number;
  type: 'strategic' | 'tactical';
  /** Every branch pushed for it, `phase-1-strategic`, then `…-rev-2`… */
  branches: string[];
  reviewId: string | null;
  /** How its last review ended: approved, request_changes, denied…; `merged` when no one had to approve. */
  outcome: string;
  mergeCommit: string | null;
}

/** What the agent did, for a test or a caller to check. */
export interface PhaseReviewAgentResult {
  runId: string;
  phases: PhaseReport[];
  answers: CommentAnswer[];
  /** main's head once the agent finished. */
  mainCommit: string;
  /** null when the run completed; else why the agent stopped. */
  stopped: string | null;
  run: Run;
}

interface Context {
  gate: Gatehouse;
  ws: Workspace;
  journal: Journal;
  runId: string;
  options: PhaseReviewAgentOptions;
  answers: CommentAnswer[];
}

const short = (commit: string) => commit.slice(0, 8);

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/**
 * A scripted agent (no LLM) that works through two phases on real git: phase 1 writes a plan on
 * `phase-1-strategic` and answers its review's comments on `-rev-2`…, phase 2 writes the result from
 * the merged main; each phase is pushed and checkpointed with its branch and retrospective.
 *
 * @example
 * const result = await runPhaseReviewAgent({ url, token, workDir: '/tmp/phase-review', log: console.log });
 */
export async function runPhaseReviewAgent(options: PhaseReviewAgentOptions): Promise<PhaseReviewAgentResult> {
  const gate = new Gatehouse({ url: options.url, token: options.token });
  const runId =
    options.runId ??
    (
      await gate.createRun({
        title: 'Phase review example',
        autonomy: options.autonomy ?? 'partial',
        signal: options.signal,
      })
    ).id;
  const ws = gate.workspace(runId);
  options.log(`run ${runId}: cloning its workspace into ${options.workDir}`);
  await ws.clone(options.workDir, { signal: options.signal });
  const ctx: Context = { gate, ws, journal: gate.journal(runId), runId, options, answers: [] };
  const phases: PhaseReport[] = [];
  const first = await phase(ctx, { phase: 1, type: 'strategic' }, () => {
    write(ws.dir, 'plan.md', PLAN_MD);
    write(ws.dir, 'workspace.md', WORKSPACE_MD);
    return PHASE_1_RETROSPECTIVE;
  });
  phases.push(first);
  let stopped = stopReason(first);
  if (stopped === null) {
    const second = await phase(ctx, { phase: 2, type: 'tactical' }, () => {
      write(ws.dir, 'output/result.md', resultMd(readFileSync(join(ws.dir, 'plan.md'), 'utf8')));
      return PHASE_2_RETROSPECTIVE;
    });
    phases.push(second);
    stopped = stopReason(second);
  }
  const run = stopped === null ? await complete(ctx) : await gate.getRun(runId);
  if (stopped !== null) options.log(`stopped: ${stopped}`);
  const mainCommit = await ws.checkoutMain();
  return { runId, phases, answers: ctx.answers, mainCommit, stopped, run };
}

/** Null when the phase ended merged; else why the agent cannot go on. */
function stopReason(report: PhaseReport): string | null {
  if (report.mergeCommit !== null) return null;
  return `phase ${report.phase} (${report.type}) ended ${report.outcome} without a merge`;
}

/** One phase: branch from the merged main, do the work, push, checkpoint; revise until it merges. */
async function phase(
  ctx: Context,
  spec: { phase: number; type: 'strategic' | 'tactical' },
  work: () => string,
): Promise<PhaseReport> {
  const { ws, options } = ctx;
  const label = `phase ${spec.phase} (${spec.type})`;
  const main = await ws.checkoutMain();
  const { branch } = await ws.startPhaseBranch(spec);
  options.log(`${label}: ${branch} from main ${short(main)}`);
  await ctx.journal.append({
    kind: 'todos',
    data: { items: [{ text: `${label}: do the work`, status: 'in_progress' }] },
  });
  const retrospective = work();
  await ws.commitAll(`${label}: ${retrospective.split('\n')[0]}`);
  const report: PhaseReport = {
    ...spec,
    branches: [],
    reviewId: null,
    outcome: 'pending',
    mergeCommit: null,
  };
  await push(ctx, report);
  let answer = await checkpoint(ctx, spec, retrospective, report);
  for (let revision = 2; answer.outcome?.outcome === 'request_changes'; revision++) {
    if (revision > (options.maxRevisions ?? 5)) break;
    await revise(ctx, spec, revision, report);
    answer = await checkpoint(ctx, spec, retrospective, report);
  }
  report.outcome = answer.outcome?.outcome ?? answer.review?.status ?? 'no review';
  report.mergeCommit = answer.review?.mergeCommit ?? null;
  await ctx.journal.append({ kind: 'note', data: { text: `${label}: ${report.outcome}` } });
  return report;
}

async function push(ctx: Context, report: PhaseReport): Promise<void> {
  const { branch, commit } = await ctx.ws.push();
  report.branches.push(branch);
  ctx.options.log(`  pushed ${branch} at ${short(commit)}`);
}

/** True when the server holds the run until a person approves its plan (Gate 0). */
function needsApprovedPlan(error: unknown): boolean {
  return (
    isGatehouseApiError(error) && error.code === 'RUN_HELD' && error.details.reason === 'intent_required'
  );
}

/** Gate 0: sends the plan for intent approval and waits for a person; anything but approval stops the agent. */
async function submitPlan(ctx: Context): Promise<void> {
  const answer = await ctx.gate.request({
    runId: ctx.runId,
    event: 'planning_complete',
    operation: 'Carry out plan.md: compare the reports and write output/result.md',
    artifacts: ['plan.md', 'workspace.md'],
    signal: ctx.options.signal,
    onGate: (gateId) => ctx.options.log(`  waiting for the approval of the plan (gate ${gateId})`),
  });
  ctx.options.log(`  plan: ${answer.outcome}`);
  if (answer.outcome !== 'approved') throw new Error(`the plan was not approved (${answer.outcome})`);
}

/** Reports the phase with its latest branch; waits for the review when the run freezes. */
async function checkpoint(
  ctx: Context,
  spec: { phase: number; type: 'strategic' | 'tactical' },
  retrospective: string,
  report: PhaseReport,
): Promise<CheckpointResult> {
  const branch = report.branches.at(-1) ?? '';
  const send = () =>
    ctx.gate.checkpoint({
      runId: ctx.runId,
      ...spec,
      branch,
      retrospective,
      signal: ctx.options.signal,
      onGate: (gateId) => ctx.options.log(`  waiting for the review of ${branch} (gate ${gateId})`),
    });
  const answer = await send().catch(async (error: unknown) => {
    // At a level that freezes after planning, nothing is checkpointed before the plan is approved.
    if (!needsApprovedPlan(error)) throw error;
    await submitPlan(ctx);
    return send();
  });
  report.reviewId = answer.review?.id ?? report.reviewId;
  ctx.options.log(`  ${branch}: ${describe(answer.review, answer.outcome?.outcome ?? null)}`);
  return answer;
}

function describe(review: ReviewDocument | null, outcome: string | null): string {
  if (review === null) return outcome ?? 'no review';
  const merged = review.mergeCommit === null ? '' : ` as ${short(review.mergeCommit)}`;
  return `${outcome ?? (review.autoMerged ? 'merged at once' : review.status)} (review ${review.status}${merged})`;
}

/** Reads the review's comments, answers each on the next `-rev-M` branch, pushes it, and replies. */
async function revise(
  ctx: Context,
  spec: { phase: number; type: 'strategic' | 'tactical' },
  revision: number,
  report: PhaseReport,
): Promise<void> {
  const { ws, options } = ctx;
  const feedback = await ws.reviewFeedback({ signal: options.signal });
  if (feedback === null) throw new Error('the review asked for changes but the run names no review comments');
  const { branch } = await ws.startPhaseBranch({ ...spec, revision });
  const open = commentsToAnswer(feedback.comments);
  options.log(`  changes requested: ${open.length} comment(s) to answer on ${branch}`);
  const answers = open.map((comment) => answerComment(ws.dir, comment, branch));
  await ws.commitAll(`phase ${spec.phase} (${spec.type}): answer the review (revision ${revision})`);
  await push(ctx, report);
  for (const [index, answer] of answers.entries()) {
    const comment = open[index];
    if (comment === undefined) continue;
    await ws.reply(comment, answer.reply, { signal: options.signal });
    options.log(
      `    ${comment.path ?? 'review'}${comment.line === null ? '' : `:${comment.line}`}: ${answer.reply}`,
    );
  }
  ctx.answers.push(...answers);
}

/** Ends the run; a final review, when the autonomy level asks for one, is waited for. */
async function complete(ctx: Context): Promise<Run> {
  const done = await ctx.gate.completeRun(ctx.runId, {
    signal: ctx.options.signal,
    onGate: (gateId) => ctx.options.log(`job complete: waiting for the final review (gate ${gateId})`),
  });
  ctx.options.log(`run ${ctx.runId}: ${done.run.status}`);
  return done.run;
}
