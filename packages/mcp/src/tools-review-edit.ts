import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type ReviewComment,
  repoPathSchema,
  reviewCommentIdSchema,
  reviewCommentSchema,
  reviewDocumentSchema,
  reviewFileSchema,
  reviewVerdictDocumentSchema,
} from 'gatehouse-hitl-protocol';
import { z } from 'zod';
import type { Extra } from './decision.js';
import { guarded, quoted, toolResult } from './results.js';
import { type ReviewContext, reviewIdInput, reviewOf, runOf, sessionRunInput } from './review-session.js';
import type { ArgsOf } from './schemas.js';

const messageInput = z.string().trim().min(1).max(2000).describe('Commit message; a default names the file');

const writeInput = {
  runId: sessionRunInput.optional(),
  reviewId: reviewIdInput.optional(),
  path: repoPathSchema.describe('The file to create or replace'),
  text: z
    .string()
    .max(5 * 1024 * 1024)
    .describe('The whole new content (UTF-8)'),
  message: messageInput.optional(),
};

const editInput = {
  runId: sessionRunInput.optional(),
  reviewId: reviewIdInput.optional(),
  path: repoPathSchema.describe('The file to change'),
  oldText: z.string().min(1).describe('Text that occurs exactly once in the file, whitespace included'),
  newText: z.string().describe('What replaces it'),
  message: messageInput.optional(),
};

const commentInput = {
  runId: sessionRunInput.optional(),
  reviewId: reviewIdInput.optional(),
  body: z.string().trim().min(1).max(20_000).describe('The comment'),
  path: repoPathSchema
    .optional()
    .describe('The file, for a file or line comment; omit for a general comment'),
  line: z.number().int().min(1).optional().describe('The line on `side`, for a line comment'),
  side: z.enum(['new', 'old']).optional().describe('new (the branch, default) or old (main)'),
  replyTo: reviewCommentIdSchema.optional().describe('Reply in this comment’s thread'),
};

const getInput = { runId: sessionRunInput.optional(), reviewId: reviewIdInput.optional() };

const editOutput = z.object({
  commit: z.string().describe('The new commit on the phase branch, in your name'),
  path: z.string(),
  review: reviewDocumentSchema,
});

const getOutput = z.object({
  review: reviewDocumentSchema,
  files: z.array(reviewFileSchema),
  comments: z.array(reviewCommentSchema),
  verdicts: z.array(reviewVerdictDocumentSchema),
});

async function commitEdit(
  ctx: ReviewContext,
  target: { reviewId: string; path: string; text: string; message: string | undefined; head: string },
  extra: Extra,
) {
  const answer = await ctx.reviews.editFile(
    target.reviewId,
    {
      path: target.path,
      text: target.text,
      expectedHead: target.head,
      ...(target.message === undefined ? {} : { message: target.message }),
    },
    extra.signal,
  );
  const output = { commit: answer.commit, path: target.path, review: answer.review };
  return toolResult(output, [
    `Committed ${target.path} to ${answer.review.branch} as ${answer.commit.slice(0, 12)} (review ${answer.review.id}).`,
  ]);
}

async function writeFile(ctx: ReviewContext, args: ArgsOf<typeof writeInput>, extra: Extra) {
  runOf(ctx, args.runId);
  const review = await reviewOf(ctx, args.reviewId, extra.signal);
  const target = { path: args.path, text: args.text, message: args.message, head: review.headCommit };
  return commitEdit(ctx, { reviewId: review.id, ...target }, extra);
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

async function editFile(ctx: ReviewContext, args: ArgsOf<typeof editInput>, extra: Extra) {
  runOf(ctx, args.runId);
  const review = await reviewOf(ctx, args.reviewId, extra.signal);
  const { file } = await ctx.reviews.reviewFile(review.id, args.path, extra.signal);
  if (file.text === null) throw new Error(`${args.path} is binary or not UTF-8: it cannot be edited as text`);
  const count = occurrences(file.text, args.oldText);
  if (count !== 1) {
    throw new Error(
      count === 0
        ? `oldText does not occur in ${args.path} at ${file.commit.slice(0, 12)}; read the file again and copy the text exactly`
        : `oldText occurs ${count} times in ${args.path}; include more surrounding text so it matches exactly once`,
    );
  }
  const text = file.text.replace(args.oldText, () => args.newText);
  const target = { path: args.path, text, message: args.message, head: file.commit };
  return commitEdit(ctx, { reviewId: review.id, ...target }, extra);
}

function where(comment: ReviewComment): string {
  if (comment.path === null) return 'general';
  if (comment.line === null) return comment.path;
  return `${comment.path}:${comment.line}${comment.side === 'old' ? ' (old side)' : ''}`;
}

async function addComment(ctx: ReviewContext, args: ArgsOf<typeof commentInput>, extra: Extra) {
  runOf(ctx, args.runId);
  const review = await reviewOf(ctx, args.reviewId, extra.signal);
  const { comment } = await ctx.reviews.comment(
    review.id,
    {
      body: args.body,
      ...(args.replyTo === undefined ? {} : { parentId: args.replyTo }),
      ...(args.path === undefined ? {} : { path: args.path }),
      ...(args.line === undefined ? {} : { line: args.line }),
      ...(args.side === undefined ? {} : { side: args.side }),
    },
    extra.signal,
  );
  return toolResult({ comment }, [
    `Comment ${comment.id} added on ${where(comment)} of review ${review.id}.`,
  ]);
}

async function getReview(ctx: ReviewContext, args: ArgsOf<typeof getInput>, extra: Extra) {
  runOf(ctx, args.runId);
  const found = await reviewOf(ctx, args.reviewId, extra.signal);
  const [detail, files, comments] = await Promise.all([
    ctx.reviews.review(found.id, extra.signal),
    ctx.reviews.reviewFiles(found.id, extra.signal),
    ctx.reviews.comments(found.id, extra.signal),
  ]);
  const { review, verdicts } = detail;
  const output = { review, files: files.files, comments: comments.items, verdicts };
  return toolResult(output, [
    `Review ${review.id} of ${review.branch} (phase ${review.phase} ${review.type}, revision ${review.revision}): ${review.status}`,
    ...files.files.map((file) => `  ${file.status.padEnd(8)} +${file.added} -${file.removed} ${file.path}`),
    `${comments.items.length} comment(s):`,
    ...comments.items.map((comment) =>
      quoted(
        `  ${comment.id} ${where(comment)} by ${comment.authorName}${comment.resolved ? ' [resolved]' : ''}${comment.outdated ? ' [outdated]' : ''}`,
        comment.body,
      ),
    ),
    ...verdicts.map(
      (verdict) =>
        `  verdict ${verdict.verdict} on ${verdict.path ?? 'the whole review'} by ${verdict.authorName}`,
    ),
  ]);
}

/** write_file, edit_file, add_review_comment and get_review. */
export function registerReviewEditTools(server: McpServer, ctx: ReviewContext): void {
  const writes = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  server.registerTool(
    'write_file',
    {
      title: 'Write a file',
      description:
        'Creates or replaces a file on the phase branch under review: one commit in the name of the person ' +
        'this session acts for. Refused when the agent pushed since the review was read; read it again.',
      inputSchema: z.strictObject(writeInput),
      outputSchema: editOutput,
      annotations: writes,
    },
    (args, extra) => guarded(() => writeFile(ctx, args, extra)),
  );
  server.registerTool(
    'edit_file',
    {
      title: 'Edit a file',
      description:
        'Replaces one exact piece of text (it must occur exactly once) in a file on the phase branch under ' +
        'review: one commit in the person’s name.',
      inputSchema: z.strictObject(editInput),
      outputSchema: editOutput,
      annotations: writes,
    },
    (args, extra) => guarded(() => editFile(ctx, args, extra)),
  );
  server.registerTool(
    'add_review_comment',
    {
      title: 'Comment on the review',
      description:
        'A general comment, a comment on a file (path), on a line (path and line), or a reply to a thread ' +
        '(replyTo), in the person’s name. The agent reads them when it answers the review.',
      inputSchema: z.strictObject(commentInput),
      outputSchema: z.object({ comment: reviewCommentSchema }),
      annotations: writes,
    },
    (args, extra) => guarded(() => addComment(ctx, args, extra)),
  );
  server.registerTool(
    'get_review',
    {
      title: 'The review',
      description:
        'A review (default: the open one): its branch and status, files with added and removed lines, ' +
        'comments (resolved, outdated) and verdicts.',
      inputSchema: z.strictObject(getInput),
      outputSchema: getOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(() => getReview(ctx, args, extra)),
  );
}
