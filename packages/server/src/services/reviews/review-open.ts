import { type Gate, GatehouseError, type PhaseType, phaseBranchName } from 'gatehouse-hitl-core';
import type { ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { resolveRef } from '../../workspace/git-ops.js';
import { MAIN_BRANCH } from '../../workspace/repos.js';
import type { CommitTools } from '../commit.js';
import type { RunDocument as Run } from '../runs/run-records.js';
import { mergeConflict, mergeReview } from './review-merge.js';
import { recordReviewEvent, repoOf, type StoredReview, saveReview } from './review-records.js';

/** What a checkpoint naming a branch reports besides its phase. */
export interface BranchInput {
  phase: number;
  type: PhaseType;
  jobComplete: boolean;
  branch: string;
  retrospective?: string | undefined;
}

/** A checked phase branch, ready to be recorded with its checkpoint (already merged when no approval is needed). */
export interface PreparedBranch {
  reviewId: string;
  existing: StoredReview | null;
  branch: string;
  revision: number;
  head: string;
  base: string;
  retrospective: string | null;
  /** The earlier revision's branch head when this checkpoint starts a new revision, for "changes since". */
  previousHead: string | null;
  merged: { commit: string; head: string } | null;
}

const BRANCH = /^phase-([1-9][0-9]*)-(strategic|tactical)(?:-rev-([1-9][0-9]*))?$/;

function invalidBranch(message: string, extra: Record<string, unknown> = {}): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `branch ${message}`, {
    field: 'branch',
    fields: [{ field: 'branch', message }],
    ...extra,
  });
}

/** The revision this checkpoint's branch must carry: 1, the same on a retry, the next after feedback. */
function expectedRevision(existing: ReviewRecord | null, branch: string): number {
  if (existing === null) return 1;
  if (existing.status === 'merged') {
    throw new GatehouseError('CONFLICT', `the review of this phase (${existing.id}) is already merged`, {
      reviewId: existing.id,
      field: 'branch',
    });
  }
  if (existing.status === 'open' && existing.branch === branch) return existing.revision;
  return existing.status === 'open' ? existing.revision : existing.revision + 1;
}

function checkName(input: BranchInput, existing: ReviewRecord | null): number {
  const match = BRANCH.exec(input.branch);
  const revision = Number(match?.[3] ?? 1);
  const expected = expectedRevision(existing, input.branch);
  const wanted = phaseBranchName(input.phase, input.type, expected);
  if (
    match === null ||
    Number(match[1]) !== input.phase ||
    match[2] !== input.type ||
    revision !== expected
  ) {
    throw invalidBranch(`must be ${wanted} for this checkpoint (got ${input.branch})`, { expected: wanted });
  }
  return revision;
}

/**
 * Checks a checkpoint's branch (named for its phase, type and revision, and pushed) outside any
 * transaction; when no approval is needed, squash-merges it at once (a conflict refuses the checkpoint).
 */
export async function prepareBranch(
  ctx: AppContext,
  facts: { run: Run; existing: StoredReview | null; freeze: boolean; input: BranchInput },
): Promise<PreparedBranch> {
  const { run, existing, input } = facts;
  const revision = checkName(input, existing);
  const repo = await repoOf(ctx, run.id);
  const head = await resolveRef(repo, `refs/heads/${input.branch}`);
  if (head === null)
    throw invalidBranch(`${input.branch} was not pushed to the run's repository; push it first`);
  const base = (await resolveRef(repo, `refs/heads/${MAIN_BRANCH}`)) ?? head;
  const newRevision = existing !== null && existing.branch !== input.branch;
  const previousHead = newRevision
    ? ((await resolveRef(repo, `refs/heads/${existing.branch}`)) ?? existing.headCommit)
    : null;
  const prepared: PreparedBranch = {
    reviewId: existing?.id ?? ctx.ids.next('rev'),
    existing,
    branch: input.branch,
    revision,
    head,
    base,
    retrospective: input.retrospective ?? existing?.retrospective ?? null,
    previousHead,
    merged: null,
  };
  if (facts.freeze) return prepared;
  const draft = recordOf(prepared, run, input, null, 0);
  const outcome = await mergeReview(ctx, draft, run.title ?? run.id);
  if (!outcome.ok) throw mergeConflict(draft, outcome.conflicts);
  return { ...prepared, merged: { commit: outcome.commit, head: outcome.head } };
}

function recordOf(
  prepared: PreparedBranch,
  run: Run,
  input: BranchInput,
  gate: Gate | null,
  now: number,
): ReviewRecord {
  const previous = prepared.existing;
  const earlier = previous === null ? [] : previous.previousBranches;
  const revisions = previous?.revisions ?? [];
  return {
    id: prepared.reviewId,
    runId: run.id,
    agentId: run.agentId,
    gateId: gate?.id ?? null,
    phase: input.phase,
    type: input.type,
    jobComplete: input.jobComplete,
    branch: prepared.branch,
    previousBranches:
      previous === null || previous.branch === prepared.branch ? earlier : [...earlier, previous.branch],
    revision: prepared.revision,
    baseCommit: prepared.base,
    headCommit: prepared.merged?.head ?? prepared.head,
    status: prepared.merged === null ? 'open' : 'merged',
    mergeCommit: prepared.merged?.commit ?? null,
    autoMerged: prepared.merged !== null,
    conflicts: [],
    retrospective: prepared.retrospective,
    revisions:
      previous === null || prepared.previousHead === null
        ? revisions
        : [
            ...revisions,
            { revision: previous.revision, branch: previous.branch, head: prepared.previousHead },
          ],
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
}

/** Opens the phase's review, or updates it on a `-rev-M` branch, inside the checkpoint's commit. */
export async function recordBranchReview(
  tools: CommitTools,
  prepared: PreparedBranch,
  facts: { run: Run; input: BranchInput; gate: Gate | null },
): Promise<ReviewRecord> {
  const { tx } = tools;
  const actor = `agent:${facts.run.agentId}`;
  const next = recordOf(prepared, facts.run, facts.input, facts.gate, tx.now);
  const data = { revision: next.revision, head: next.headCommit, gateId: next.gateId };
  const stored = prepared.existing === null ? null : await tx.getReview(prepared.reviewId);
  if (stored === null) {
    await tx.insertReview(next);
    await recordReviewEvent(tools, { ...next, status: 'open' }, { kind: 'review.opened', actor, data });
  } else {
    await saveReview(tools, stored, next, { kind: 'review.opened', actor, data });
  }
  if (next.status === 'merged') {
    await recordReviewEvent(tools, next, {
      kind: 'review.auto_merged',
      actor: 'system',
      data: { mergeCommit: next.mergeCommit, head: next.headCommit },
    });
  }
  return next;
}
