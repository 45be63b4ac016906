import { GatehouseError } from 'gatehouse-hitl-core';
import type { ReviewComment, ReviewVerdictDocument } from 'gatehouse-hitl-protocol';
import type { ReviewCommentRecord, ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { mergeBase, readFile } from '../../workspace/git-ops.js';
import { commit } from '../commit.js';
import {
  actorId,
  actorOf,
  effectiveStatus,
  liveBase,
  liveHead,
  loadReview,
  recordReviewEvent,
  repoOf,
} from './review-records.js';

/** A new comment: general, on a file, or on a line of one side; or a reply. */
export interface CommentInput {
  body: string;
  parentId?: string | undefined;
  path?: string | undefined;
  line?: number | undefined;
  /** The first line of a range ending at `line`. */
  startLine?: number | undefined;
  /** Replacement text for the range (new side). */
  suggestion?: string | undefined;
  side: 'new' | 'old';
  /** Kept in the author's pending review until they submit it. */
  pending?: boolean | undefined;
}

/** `user:<id>` or `agent:<id>` of a signed-in principal, as comments record their author. */
export function authorOf(principal: Principal): string | null {
  return principal.kind === 'user' || principal.kind === 'agent' ? `${principal.kind}:${principal.id}` : null;
}

/** The comments `principal` may see: published ones, and their own pending ones. */
export function visibleComments<C extends ReviewCommentRecord>(
  principal: Principal,
  comments: readonly C[],
): C[] {
  const author = authorOf(principal);
  return comments.filter((comment) => !comment.pending || comment.author === author);
}

function invalid(field: string, message: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `${field} ${message}`, {
    field,
    fields: [{ field, message }],
  });
}

/** Reads files of one review at its current head (new side) and merge base (old side), each once. */
export function createSideReader(ctx: AppContext, review: ReviewRecord) {
  const repo = repoOf(ctx, review.runId);
  const commits = repo.then(async (path) => {
    const [head, base] = await Promise.all([liveHead(path, review), liveBase(path, review)]);
    return { head, old: await mergeBase(path, base, head) };
  });
  const cache = new Map<string, Promise<string[] | 'binary' | null>>();
  return {
    head: async () => (await commits).head,
    /** The file's lines on `side`; null when it is not there, 'binary' when it has no lines. */
    lines(side: 'new' | 'old', path: string): Promise<string[] | 'binary' | null> {
      const key = `${side}\0${path}`;
      let found = cache.get(key);
      if (found === undefined) {
        found = (async () => {
          const at = await commits;
          const file = await readFile(await repo, side === 'new' ? at.head : at.old, path);
          if (file === null) return null;
          return file.text === null ? 'binary' : file.text.split('\n');
        })();
        cache.set(key, found);
      }
      return found;
    },
  };
}

type SideReader = ReturnType<typeof createSideReader>;

/** The comment as the API shows it: outdated when its line reads differently now, or its file is gone. */
/** The text of lines `first`..`last` (1-based), joined by newlines. */
export function rangeText(lines: readonly string[], first: number, last: number): string {
  return lines.slice(first - 1, last).join('\n');
}

async function commentView(reader: SideReader, comment: ReviewCommentRecord): Promise<ReviewComment> {
  let outdated = false;
  const startLine = comment.startLine ?? null;
  if (comment.path !== null) {
    const lines = await reader.lines(comment.side ?? 'new', comment.path);
    if (lines === null) outdated = true;
    else if (comment.line !== null)
      outdated =
        lines === 'binary' || rangeText(lines, startLine ?? comment.line, comment.line) !== comment.lineText;
  }
  return { ...comment, startLine, suggestion: comment.suggestion ?? null, outdated };
}

/** Every comment of a review, oldest first, with `outdated` computed against the current head. */
export async function commentViews(
  ctx: AppContext,
  review: ReviewRecord,
  comments: readonly ReviewCommentRecord[],
): Promise<ReviewComment[]> {
  const reader = createSideReader(ctx, review);
  return Promise.all(comments.map((comment) => commentView(reader, comment)));
}

async function anchorOf(reader: SideReader, input: CommentInput): Promise<string | null> {
  if (input.path === undefined) return null;
  const lines = await reader.lines(input.side, input.path);
  if (lines === null) throw invalid('path', `${input.path} is not in the review's ${input.side} side`);
  if (input.line === undefined) return null;
  if (lines === 'binary') throw invalid('line', `${input.path} is binary: comment on the file instead`);
  const text = lines[input.line - 1];
  if (text === undefined || (input.line === lines.length && text === '')) {
    throw invalid('line', `${input.path} has no line ${input.line} on the ${input.side} side`);
  }
  return rangeText(lines, input.startLine ?? input.line, input.line);
}

/** Adds a comment (developer+, or the run's own agent); a line must exist on its side now. */
export async function addComment(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  input: CommentInput,
): Promise<ReviewComment> {
  const { review, actor, parent } = await ctx.store.read(async (tx) => {
    const stored = await loadReview(tx, principal, reviewId);
    const parentComment = input.parentId === undefined ? null : await tx.getReviewComment(input.parentId);
    return {
      review: stored,
      actor: await actorOf(tx, principal, stored, 'developer'),
      parent: parentComment,
    };
  });
  if (
    input.parentId !== undefined &&
    (parent === null ||
      parent.reviewId !== review.id ||
      parent.parentId !== null ||
      (parent.pending && parent.author !== actorId(actor)))
  ) {
    throw invalid('parentId', `must be the first comment of a thread of review ${review.id}`);
  }
  if (input.pending && actor.kind === 'agent') {
    throw invalid('pending', 'is for people reviewing; an agent’s comments are published at once');
  }
  const reader = createSideReader(ctx, review);
  const lineText = await anchorOf(reader, input);
  const line = input.path === undefined ? null : (input.line ?? null);
  const startLine =
    line === null || input.startLine === undefined || input.startLine === line ? null : input.startLine;
  const record: ReviewCommentRecord = {
    id: ctx.ids.next('cmt'),
    reviewId: review.id,
    parentId: input.parentId ?? null,
    path: input.path ?? null,
    line,
    side: line === null ? null : input.side,
    commit: await reader.head(),
    lineText,
    startLine,
    suggestion: line === null ? null : (input.suggestion ?? null),
    author: actorId(actor),
    authorName: actor.name,
    body: input.body,
    resolved: false,
    pending: input.pending === true,
    createdAt: ctx.clock.now(),
  };
  await commit(ctx, async (tools) => {
    await tools.tx.insertReviewComment({ ...record, createdAt: tools.tx.now });
    await recordReviewEvent(tools, review, {
      kind: 'review.comment',
      actor: record.author,
      data: {
        commentId: record.id,
        path: record.path,
        line: record.line,
        startLine: record.startLine,
        parentId: record.parentId,
        pending: record.pending,
        suggestion: record.suggestion !== null,
      },
    });
  });
  return commentView(reader, record);
}

/** Resolves or reopens a thread (its first comment). */
export async function resolveThread(
  ctx: AppContext,
  principal: Principal,
  input: { reviewId: string; commentId: string; resolved: boolean },
): Promise<ReviewComment> {
  const { review, comment } = await commit(ctx, async (tools) => {
    const stored = await loadReview(tools.tx, principal, input.reviewId);
    const actor = await actorOf(tools.tx, principal, stored, 'developer');
    const found = await tools.tx.getReviewComment(input.commentId);
    if (
      found === null ||
      found.reviewId !== stored.id ||
      (found.pending && found.author !== actorId(actor))
    ) {
      throw new GatehouseError('NOT_FOUND', `no comment ${input.commentId} on review ${stored.id}`, {
        commentId: input.commentId,
      });
    }
    if (found.parentId !== null) {
      throw invalid('commentId', `is a reply; resolve its thread ${found.parentId} instead`);
    }
    // Agents answer people's threads; only a person closes one a person opened (reopening is stricter).
    if (input.resolved && principal.kind === 'agent' && found.author !== actorId(actor)) {
      throw new GatehouseError(
        'FORBIDDEN',
        'an agent may resolve only its own threads; a person resolves theirs',
        {
          commentId: found.id,
        },
      );
    }
    await tools.tx.setReviewCommentResolved(found.id, input.resolved);
    await recordReviewEvent(tools, stored, {
      kind: 'review.comment_resolved',
      actor: actorId(actor),
      data: { commentId: found.id, resolved: input.resolved },
    });
    return { review: stored, comment: { ...found, resolved: input.resolved } };
  });
  return commentView(createSideReader(ctx, review), comment);
}

/** Records a person's verdict on a file or the whole review (latest wins); returns every verdict. */
export async function putVerdict(
  ctx: AppContext,
  principal: Principal,
  reviewId: string,
  input: { path?: string | undefined; verdict: 'approve' | 'request_changes' },
): Promise<ReviewVerdictDocument[]> {
  if (principal.kind === 'agent')
    throw new GatehouseError('FORBIDDEN', 'agents cannot give verdicts; a person must');
  const review = await ctx.store.read((tx) => loadReview(tx, principal, reviewId));
  const head = await liveHead(await repoOf(ctx, review.runId), review);
  return commit(ctx, async (tools) => {
    const stored = await loadReview(tools.tx, principal, reviewId);
    const actor = await actorOf(tools.tx, principal, stored, 'developer');
    const status = effectiveStatus(stored, null);
    if (status === 'merged' || status === 'closed') {
      throw new GatehouseError(
        'INVALID_TRANSITION',
        `review ${stored.id} is ${status}; it takes no more verdicts`,
        {
          reviewId: stored.id,
          status,
        },
      );
    }
    await tools.tx.putReviewVerdict({
      reviewId: stored.id,
      path: input.path ?? null,
      author: actorId(actor),
      authorName: actor.name,
      verdict: input.verdict,
      commit: head,
      createdAt: tools.tx.now,
    });
    await recordReviewEvent(tools, stored, {
      kind: 'review.verdict',
      actor: actorId(actor),
      data: { path: input.path ?? null, verdict: input.verdict },
    });
    return tools.tx.listReviewVerdicts(stored.id);
  });
}
