import { type Gate, GatehouseError, hasRole, type Role } from 'gatehouse-hitl-core';
import type { ReviewDocument } from 'gatehouse-hitl-protocol';
import type { ReviewRecord, ReviewsRepo, RunsRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { resolveRef } from '../../workspace/git-ops.js';
import { ensureRepo, MAIN_BRANCH, reposDirOf } from '../../workspace/repos.js';
import type { CommitTools } from '../commit.js';

/** A stored review with its row version, for conditional updates. */
export type StoredReview = ReviewRecord & { version: number };

/** Who may act on a review: a person with a role, or the run's own agent. */
export type ReviewActor =
  | { kind: 'user'; id: string; name: string; role: Role }
  | { kind: 'agent'; id: string; name: string };

/** The run's bare repository, created on first use. */
export function repoOf(ctx: AppContext, runId: string): Promise<string> {
  return ensureRepo(reposDirOf(ctx.config), runId);
}

export function notFound(reviewId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no review ${reviewId}`, { reviewId });
}

/** The review, or NOT_FOUND; another agent's review is as unknown as a missing one. */
export async function loadReview(
  tx: ReviewsRepo,
  principal: Principal,
  reviewId: string,
): Promise<StoredReview> {
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  const review = await tx.getReview(reviewId);
  if (review === null) throw notFound(reviewId);
  if (principal.kind === 'agent' && review.agentId !== principal.id) throw notFound(reviewId);
  return review;
}

/** The acting person (with at least `minRole`) or the run's own agent. */
export async function actorOf(
  tx: RunsRepo & { getAgent(id: string): Promise<{ name: string } | null> },
  principal: Principal,
  review: ReviewRecord,
  minRole: Role,
): Promise<ReviewActor> {
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  if (principal.kind === 'agent') {
    if (principal.id !== review.agentId) throw notFound(review.id);
    const agent = await tx.getAgent(principal.id);
    return { kind: 'agent', id: principal.id, name: agent?.name ?? principal.id };
  }
  if (!hasRole(principal.role, minRole)) {
    throw new GatehouseError(
      'ROLE_TOO_LOW',
      `this needs the role ${minRole} or higher (you are ${principal.role})`,
      { required: minRole, actual: principal.role },
    );
  }
  return { kind: 'user', id: principal.id, name: principal.name, role: principal.role };
}

export function actorId(actor: ReviewActor): string {
  return `${actor.kind}:${actor.id}`;
}

/** A review whose gate ended without a decision on it (expired, cancelled) is closed. */
export function effectiveStatus(review: ReviewRecord, gate: Gate | null): ReviewRecord['status'] {
  if (review.status !== 'open' || gate === null) return review.status;
  return gate.status === 'rejected' || gate.status === 'cancelled' || gate.status === 'expired'
    ? 'closed'
    : review.status;
}

/** The head a review shows: the branch's live head while it is under review, else the stored one. */
export async function liveHead(repo: string, review: ReviewRecord): Promise<string> {
  if (review.status !== 'open' && review.status !== 'changes_requested') return review.headCommit;
  return (await resolveRef(repo, `refs/heads/${review.branch}`)) ?? review.headCommit;
}

/** main while the review is open (the pull request's view), else the base it opened on. */
export async function liveBase(repo: string, review: ReviewRecord): Promise<string> {
  if (review.status === 'merged' || review.status === 'closed') return review.baseCommit;
  return (await resolveRef(repo, `refs/heads/${MAIN_BRANCH}`)) ?? review.baseCommit;
}

export function documentOf(
  review: ReviewRecord,
  status: ReviewRecord['status'],
  head: string,
): ReviewDocument {
  return {
    id: review.id,
    runId: review.runId,
    gateId: review.gateId,
    phase: review.phase,
    type: review.type,
    jobComplete: review.jobComplete,
    branch: review.branch,
    revision: review.revision,
    baseCommit: review.baseCommit,
    headCommit: head,
    status,
    mergeCommit: review.mergeCommit,
    autoMerged: review.autoMerged,
    conflicts: review.conflicts,
    revisions: [
      ...(review.revisions ?? []).map(({ revision, branch, head: ended }) => ({
        revision,
        branch,
        headCommit: ended,
      })),
      { revision: review.revision, branch: review.branch, headCommit: head },
    ],
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  };
}

/** The review as the API shows it, with its live head and its gate's word on its status. */
export async function viewOf(
  ctx: AppContext,
  review: ReviewRecord,
  gate: Gate | null,
): Promise<ReviewDocument> {
  const status = effectiveStatus(review, gate);
  const head = await liveHead(await repoOf(ctx, review.runId), { ...review, status });
  return documentOf(review, status, head);
}

/** Writes the review at the version it was read at, audits `kind` and announces `review.updated`. */
export async function saveReview(
  tools: CommitTools,
  stored: StoredReview,
  next: ReviewRecord,
  audit: { kind: string; actor: string; data?: Record<string, unknown> },
): Promise<StoredReview> {
  const changed = { ...next, updatedAt: tools.tx.now };
  if (!(await tools.tx.updateReview(changed, stored.version))) {
    throw new GatehouseError('CONFLICT', `review ${stored.id} changed meanwhile; read it again and retry`, {
      reviewId: stored.id,
    });
  }
  await recordReviewEvent(tools, changed, audit);
  return { ...changed, version: stored.version + 1 };
}

/** Audits a change to a review and announces it on the run's stream. */
export async function recordReviewEvent(
  tools: CommitTools,
  review: ReviewRecord,
  audit: { kind: string; actor: string; data?: Record<string, unknown> },
): Promise<void> {
  await tools.audit({
    kind: audit.kind,
    actor: audit.actor,
    subject: review.id,
    data: { runId: review.runId, branch: review.branch, status: review.status, ...audit.data },
  });
  await tools.emit({
    type: 'review.updated',
    runId: review.runId,
    agentId: review.agentId,
    gateId: review.gateId,
    data: { runId: review.runId, reviewId: review.id, status: review.status },
  });
}
