import { GatehouseError } from 'gatehouse-hitl-core';
import type { ReviewRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { gitText } from '../../workspace/git.js';
import { deleteBranch, resolveRef, squashMerge } from '../../workspace/git-ops.js';
import { MAIN_BRANCH, serverIdentity } from '../../workspace/repos.js';
import { repoOf } from './review-records.js';

/** The trailer that ties main's squash commit to its review; a retry finds the merge by it. */
export const REVIEW_TRAILER = 'Gatehouse-Review';

export type MergeOutcome = { ok: true; commit: string; head: string } | { ok: false; conflicts: string[] };

interface Author {
  name: string;
  email: string;
}

/** Distinct authors of the branch's own commits (not on main), oldest first. */
async function branchAuthors(repo: string, main: string, head: string): Promise<Author[]> {
  const text = await gitText(repo, ['log', '--reverse', '--format=%an%x00%ae', `${main}..${head}`, '--']);
  const seen = new Map<string, Author>();
  for (const line of text.split('\n')) {
    const [name = '', email = ''] = line.split('\0');
    if (name === '' && email === '') continue;
    const key = `${name}\0${email.toLowerCase()}`;
    if (!seen.has(key)) seen.set(key, { name, email });
  }
  return [...seen.values()];
}

/** One line of a trailer value: no line breaks or angle brackets from a name a person chose. */
function trailerPart(text: string): string {
  return text.replace(/[\r\n<>]/g, ' ').trim();
}

/**
 * The squash commit's title and body before a person edits them: the phase's retrospective (its
 * first line the title) when there is one, else `Phase N (type) of <run>`.
 */
export function defaultSquashMessage(review: ReviewRecord, runName: string): { title: string; body: string } {
  const text = review.retrospective?.trim() ?? '';
  if (text === '') return { title: `Phase ${review.phase} (${review.type}) of ${runName}`, body: '' };
  const [title = '', ...rest] = text.split('\n');
  return { title: title.trim(), body: rest.join('\n').trim() };
}

/** A person's body never carries a review trailer of its own: a retried merge finds the merge by it. */
function withoutReviewTrailer(body: string): string {
  return body
    .split('\n')
    .filter((line) => !line.trim().toLowerCase().startsWith(`${REVIEW_TRAILER.toLowerCase()}:`))
    .join('\n')
    .trim();
}

/**
 * The squash commit's message: the title and body a person edited, else the default (the phase's
 * retrospective, or `Phase N (type) of <run>`); then the review trailer and a Co-authored-by for every author.
 */
export function squashMessage(review: ReviewRecord, runName: string, authors: readonly Author[]): string {
  const { title, body } = review.squashMessage ?? defaultSquashMessage(review, runName);
  const text = withoutReviewTrailer(body);
  const subject = text === '' ? title : `${title}\n\n${text}`;
  const server = serverIdentity(0);
  const trailers = [`${REVIEW_TRAILER}: ${review.id}`];
  for (const author of authors) {
    if (author.email === server.GIT_AUTHOR_EMAIL) continue;
    trailers.push(`Co-authored-by: ${trailerPart(author.name)} <${trailerPart(author.email)}>`);
  }
  return `${subject.trim()}\n\n${trailers.join('\n')}\n`;
}

/** The squash commit of this review already on main (a merge recorded before a crash), if any. */
export async function findMergeOnMain(repo: string, reviewId: string): Promise<string | null> {
  const text = await gitText(repo, [
    'log',
    '--fixed-strings',
    `--grep=${REVIEW_TRAILER}: ${reviewId}`,
    '--format=%H',
    '--max-count=1',
    `refs/heads/${MAIN_BRANCH}`,
    '--',
  ]);
  return text === '' ? null : text;
}

/**
 * Squash-merges the review's branch into main outside any transaction. A merge already on main
 * (found by its trailer) is returned rather than merged twice.
 */
export async function mergeReview(
  ctx: AppContext,
  review: ReviewRecord,
  runName: string,
): Promise<MergeOutcome> {
  const repo = await repoOf(ctx, review.runId);
  const head = await resolveRef(repo, `refs/heads/${review.branch}`);
  const done = await findMergeOnMain(repo, review.id);
  if (done !== null) return { ok: true, commit: done, head: head ?? review.headCommit };
  if (head === null) {
    throw new GatehouseError('CONFLICT', `branch ${review.branch} is gone; push it again`, {
      field: 'branch',
      branch: review.branch,
    });
  }
  const main = (await resolveRef(repo, `refs/heads/${MAIN_BRANCH}`)) ?? head;
  const authors = await branchAuthors(repo, main, head);
  const result = await squashMerge(repo, {
    branch: review.branch,
    message: squashMessage(review, runName, authors),
    identity: serverIdentity(ctx.clock.now() / 1000),
  });
  return result.ok ? { ok: true, commit: result.commit, head } : { ok: false, conflicts: result.conflicts };
}

/** MERGE_CONFLICT naming the files. */
export function mergeConflict(review: ReviewRecord, conflicts: readonly string[]): GatehouseError {
  const shown = conflicts.slice(0, 20).join(', ');
  const more = conflicts.length > 20 ? ` and ${conflicts.length - 20} more` : '';
  return new GatehouseError(
    'MERGE_CONFLICT',
    `${review.branch} conflicts with ${MAIN_BRANCH} in ${shown}${more}; update the branch from ${MAIN_BRANCH} (request changes to ask the agent)`,
    { reviewId: review.id, branch: review.branch, conflicts: [...conflicts] },
  );
}

/** Deletes the review's branch and its earlier `-rev-` branches once merged; a failure only logs. */
export async function deleteReviewBranches(ctx: AppContext, review: ReviewRecord): Promise<void> {
  try {
    const repo = await repoOf(ctx, review.runId);
    for (const branch of [...review.previousBranches, review.branch]) await deleteBranch(repo, branch);
  } catch (error) {
    ctx.log.warn({ err: error, reviewId: review.id }, 'merged review branches could not be deleted');
  }
}
