import { z } from 'zod';
import { phaseTypeSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { runIdSchema } from './ids.js';
import {
  reviewRevisionSchema,
  reviewSubmissionBodySchema,
  reviewSubmissionResponseSchema,
  reviewSummarySchema,
  squashMessageBodySchema,
  squashMessageResponseSchema,
  squashMessageSchema,
} from './review-timeline.js';

export * from './review-timeline.js';

/** Review ids as the server makes them: `rev_…`. */
export const reviewIdSchema = z
  .string()
  .regex(/^rev_[A-Za-z0-9_]{1,64}$/, 'a review id looks like rev_…')
  .describe('Review id');

export const reviewCommentIdSchema = z
  .string()
  .regex(/^cmt_[A-Za-z0-9_]{1,64}$/, 'a comment id looks like cmt_…')
  .describe('Review comment id');

/** A path inside the repository: relative, `/`-separated, never leaving it. */
export const repoPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (path) =>
      !path.startsWith('/') &&
      !path.includes('\\') &&
      !path.includes('\0') &&
      path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part !== '.git'),
    'must be a relative path inside the repository (no leading /, no . or .. parts, no .git)',
  )
  .describe('A file path relative to the repository root');

/** A full commit id. */
export const commitIdSchema = z
  .string()
  .regex(/^[0-9a-f]{40}$/, 'a commit id is 40 lowercase hex digits')
  .describe('Commit id');

export const reviewStatusSchema = z
  .enum(['open', 'changes_requested', 'merged', 'closed'])
  .describe('open (waiting for a decision), changes_requested, merged, closed (rejected, cancelled)');

export const reviewVerdictSchema = z.enum(['approve', 'request_changes']);

/** A phase's pull request against `main`. */
export const reviewDocumentSchema = z
  .object({
    id: z.string().describe('Review id'),
    runId: z.string(),
    gateId: z.string().nullable().describe('The phase_review gate deciding it; null when merged at once'),
    phase: z.number().describe('Phase number, from 1'),
    type: phaseTypeSchema,
    jobComplete: z.boolean().describe('True for the final review'),
    branch: z.string().describe('The phase branch under review (its latest revision)'),
    revision: z.number().describe('1, then 2, 3… after each request for changes (`-rev-M` branches)'),
    baseCommit: z.string().describe('main when the review opened'),
    headCommit: z.string().describe('The branch head the review shows'),
    status: reviewStatusSchema,
    mergeCommit: z.string().nullable().describe('The squash commit on main, once merged'),
    autoMerged: z.boolean().describe('Merged at once because the autonomy level needs no approval'),
    conflicts: z.array(z.string()).describe('Files that conflict with main at the last merge attempt'),
    revisions: z
      .array(reviewRevisionSchema)
      .describe('Every revision, oldest first, the current one last with the head the review shows'),
    createdAt: z.number().describe('Epoch ms'),
    updatedAt: z.number().describe('Epoch ms'),
  })
  .describe('A review (pull request) of a phase branch');

export const reviewFileSchema = z.object({
  path: z.string(),
  oldPath: z.string().nullable().describe('The path before a rename'),
  status: z.enum(['added', 'modified', 'deleted', 'renamed']),
  added: z.number().describe('Lines added (0 for binary files)'),
  removed: z.number().describe('Lines removed (0 for binary files)'),
  binary: z.boolean(),
});

export const diffLineSchema = z.object({
  kind: z.enum(['context', 'add', 'del']),
  oldLine: z.number().nullable(),
  newLine: z.number().nullable(),
  text: z.string(),
});

export const diffHunkSchema = z.object({
  header: z.string().describe('The `@@ … @@` line'),
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  lines: z.array(diffLineSchema),
});

export const fileDiffSchema = z.object({
  path: z.string(),
  oldPath: z.string().nullable(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'unchanged']),
  binary: z.boolean().describe('Binary or not UTF-8: no lines are shown'),
  hunks: z.array(diffHunkSchema),
  truncated: z.boolean().describe('The diff was cut at the size limit'),
});

export const reviewCommentSchema = z
  .object({
    id: z.string(),
    reviewId: z.string(),
    parentId: z.string().nullable().describe('The thread’s first comment, for a reply'),
    path: z.string().nullable().describe('Null for a general comment'),
    line: z
      .number()
      .nullable()
      .describe('Line number on `side` (the last of a range), null for a file or general comment'),
    startLine: z.number().nullable().describe('The first line of a range; null for one line'),
    suggestion: z
      .string()
      .nullable()
      .describe('Replacement text for the commented lines, applied with one click; null when none'),
    side: z.enum(['new', 'old']).nullable(),
    commit: z.string().describe('The head the comment was written on'),
    lineText: z
      .string()
      .nullable()
      .describe('The line (the lines of a range, joined by newlines) as it read then'),
    author: z.string().describe('`user:<id>` or `agent:<id>`'),
    authorName: z.string(),
    body: z.string(),
    resolved: z.boolean().describe('For a thread’s first comment: the thread is resolved'),
    pending: z.boolean().describe('In its author’s pending review: only they see it until they submit'),
    outdated: z.boolean().describe('The line changed or is gone since the comment was written'),
    createdAt: z.number(),
  })
  .describe('A review comment: on a line, on a file, or general; replies name their thread');

export const reviewVerdictDocumentSchema = z.object({
  path: z.string().nullable().describe('Null for the whole review'),
  verdict: reviewVerdictSchema,
  author: z.string(),
  authorName: z.string(),
  commit: z.string(),
  createdAt: z.number(),
});

/** `/v1/reviews/:id…`. */
export const reviewParamsSchema = z.strictObject({ id: reviewIdSchema });
export const reviewCommentParamsSchema = z.strictObject({
  id: reviewIdSchema,
  commentId: reviewCommentIdSchema,
});

/** `GET /v1/runs/:id/reviews`. */
export const reviewListResponseSchema = z.object({ items: z.array(reviewDocumentSchema) });

/** `GET /v1/reviews/:id`. */
export const reviewResponseSchema = z.object({
  review: reviewDocumentSchema,
  verdicts: z.array(reviewVerdictDocumentSchema),
  squashMessage: squashMessageSchema,
  summaries: z.array(reviewSummarySchema).describe('The timeline of submitted reviews, oldest first'),
});

/** `GET /v1/reviews/:id/files`. */
export const reviewFilesResponseSchema = z.object({
  base: z.string(),
  head: z.string(),
  files: z.array(reviewFileSchema),
  viewed: z
    .array(z.string())
    .describe('Paths the caller marked viewed that are unchanged since (a person’s own; empty for agents)'),
});

/** `PUT /v1/reviews/:id/viewed`: marks a file viewed (or not) for the caller. */
export const reviewViewedBodySchema = z.strictObject({
  path: repoPathSchema,
  viewed: z.boolean().default(true).describe('false clears the mark'),
});
export const reviewViewedResponseSchema = z.object({ viewed: z.array(z.string()) });

/** `since=N`: changes since revision N's head (an interdiff) instead of against main. */
const sinceSchema = z.coerce
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Show the changes since this earlier revision’s head instead of against main');

/** `GET /v1/reviews/:id/files?since=`. */
export const reviewFilesQuerySchema = z.strictObject({ since: sinceSchema });

/** `GET /v1/reviews/:id/diff?path=&since=`. */
export const reviewDiffQuerySchema = z.strictObject({ path: repoPathSchema, since: sinceSchema });
export const reviewDiffResponseSchema = z.object({
  base: z.string(),
  head: z.string(),
  diff: fileDiffSchema,
});

/** `GET /v1/reviews/:id/file?path=&side=`. */
export const reviewFileQuerySchema = z.strictObject({
  path: repoPathSchema,
  side: z.enum(['head', 'base']).default('head').describe('head (the branch) or base (main)'),
});
export const fileContentSchema = z.object({
  path: z.string(),
  commit: z.string(),
  binary: z.boolean().describe('Binary or not UTF-8: text is null'),
  size: z.number().describe('Bytes'),
  text: z.string().nullable(),
});
export const reviewFileResponseSchema = z.object({ file: fileContentSchema });

/** `PUT /v1/reviews/:id/file`: a person's edit, committed to the phase branch in their name. */
export const reviewEditBodySchema = z.strictObject({
  path: repoPathSchema,
  text: z
    .string()
    .max(5 * 1024 * 1024)
    .describe('The file’s new content (UTF-8)'),
  message: z.string().trim().min(1).max(2000).optional().describe('Commit message; a default names the file'),
  expectedHead: commitIdSchema.describe('The head the edit was made on; a newer push answers 409'),
});
export const reviewEditResponseSchema = z.object({ commit: z.string(), review: reviewDocumentSchema });

/** `GET /v1/reviews/:id/comments`. */
export const reviewCommentListResponseSchema = z.object({ items: z.array(reviewCommentSchema) });

/** `POST /v1/reviews/:id/comments`. */
export const reviewCommentBodySchema = z
  .strictObject({
    body: z.string().trim().min(1).max(20_000).describe('The comment'),
    parentId: reviewCommentIdSchema.optional().describe('Reply to this thread'),
    path: repoPathSchema.optional().describe('The file, for a file or line comment'),
    line: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The line on `side` (the last of a range), for a line comment'),
    startLine: z.number().int().min(1).optional().describe('The first line of a multi-line comment'),
    suggestion: z
      .string()
      .max(1024 * 1024)
      .optional()
      .describe('Replacement text for the lines (new side), applied with one click as a commit'),
    side: z.enum(['new', 'old']).default('new'),
    pending: z
      .boolean()
      .default(false)
      .describe('Keep it in your pending review (seen only by you) until you submit the review'),
  })
  .refine((body) => body.line === undefined || body.path !== undefined, {
    message: 'a line comment needs its path',
    path: ['path'],
  })
  .refine(
    (body) => body.startLine === undefined || (body.line !== undefined && body.startLine <= body.line),
    {
      message: 'a range needs its last line (line) at or after startLine',
      path: ['startLine'],
    },
  )
  .refine((body) => body.suggestion === undefined || (body.line !== undefined && body.side === 'new'), {
    message: 'a suggestion replaces lines of the new side: give line (and startLine for a range)',
    path: ['suggestion'],
  });
export const reviewCommentResponseSchema = z.object({ comment: reviewCommentSchema });

/** `POST /v1/reviews/:id/comments/:commentId/resolve`. */
export const reviewResolveBodySchema = z.strictObject({
  resolved: z.boolean().default(true).describe('false reopens the thread'),
});

/** `POST /v1/reviews/:id/comments/:commentId/apply`: commits a suggestion to the phase branch. */
export const reviewApplyResponseSchema = z.object({ commit: z.string(), comment: reviewCommentSchema });

/** `POST /v1/reviews/:id/verdicts`: approve or request changes on one file, or on the whole review. */
export const reviewVerdictBodySchema = z.strictObject({
  path: repoPathSchema.optional().describe('The file; omitted for the whole review'),
  verdict: reviewVerdictSchema,
});
export const reviewVerdictResponseSchema = z.object({ verdicts: z.array(reviewVerdictDocumentSchema) });

/** What a resumed agent reads after its review asked for changes. */
export const reviewFeedbackSchema = z.object({
  reviewId: z.string(),
  branch: z.string().describe('The branch reviewed'),
  nextBranch: z.string().describe('Where to push the answer: the next `-rev-M` branch'),
  headCommit: z.string().describe('The reviewed head, including the people’s own commits'),
  comments: z.array(reviewCommentSchema),
  summaries: z
    .array(reviewSummarySchema)
    .describe('Submitted reviews and requests for changes, oldest first'),
});

export const runReviewsParamsSchema = z.strictObject({ id: runIdSchema });

export type ReviewDocument = z.infer<typeof reviewDocumentSchema>;
export type ReviewFile = z.infer<typeof reviewFileSchema>;
export type DiffLine = z.infer<typeof diffLineSchema>;
export type DiffHunk = z.infer<typeof diffHunkSchema>;
export type FileDiff = z.infer<typeof fileDiffSchema>;
export type FileContent = z.infer<typeof fileContentSchema>;
export type ReviewComment = z.infer<typeof reviewCommentSchema>;
export type ReviewVerdictDocument = z.infer<typeof reviewVerdictDocumentSchema>;
export type ReviewResponse = z.infer<typeof reviewResponseSchema>;
export type ReviewListResponse = z.infer<typeof reviewListResponseSchema>;
export type ReviewFilesResponse = z.infer<typeof reviewFilesResponseSchema>;
export type ReviewViewedBody = z.input<typeof reviewViewedBodySchema>;
export type ReviewDiffResponse = z.infer<typeof reviewDiffResponseSchema>;
export type ReviewFileResponse = z.infer<typeof reviewFileResponseSchema>;
export type ReviewEditBody = z.input<typeof reviewEditBodySchema>;
export type ReviewEditResponse = z.infer<typeof reviewEditResponseSchema>;
export type ReviewCommentBody = z.input<typeof reviewCommentBodySchema>;
export type ReviewCommentResponse = z.infer<typeof reviewCommentResponseSchema>;
export type ReviewCommentListResponse = z.infer<typeof reviewCommentListResponseSchema>;
export type ReviewVerdictBody = z.input<typeof reviewVerdictBodySchema>;
export type ReviewVerdictResponse = z.infer<typeof reviewVerdictResponseSchema>;
export type ReviewFeedback = z.infer<typeof reviewFeedbackSchema>;

const tags = ['reviews'];
const params = reviewParamsSchema;

/** Reviews of phase branches: files, diffs, comments, verdicts and edits in the browser. */
export const reviewRoutes = {
  listOfRun: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/reviews',
    tags,
    params: runReviewsParamsSchema,
    response: { 200: reviewListResponseSchema },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/reviews/:id',
    tags,
    params,
    response: { 200: reviewResponseSchema },
  }),
  files: defineRoute({
    method: 'GET',
    path: '/v1/reviews/:id/files',
    tags,
    params,
    query: reviewFilesQuerySchema,
    response: { 200: reviewFilesResponseSchema },
  }),
  diff: defineRoute({
    method: 'GET',
    path: '/v1/reviews/:id/diff',
    tags,
    params,
    query: reviewDiffQuerySchema,
    response: { 200: reviewDiffResponseSchema },
  }),
  file: defineRoute({
    method: 'GET',
    path: '/v1/reviews/:id/file',
    tags,
    params,
    query: reviewFileQuerySchema,
    response: { 200: reviewFileResponseSchema },
  }),
  edit: defineRoute({
    method: 'PUT',
    path: '/v1/reviews/:id/file',
    tags,
    params,
    body: reviewEditBodySchema,
    response: { 200: reviewEditResponseSchema },
  }),
  comments: defineRoute({
    method: 'GET',
    path: '/v1/reviews/:id/comments',
    tags,
    params,
    response: { 200: reviewCommentListResponseSchema },
  }),
  comment: defineRoute({
    method: 'POST',
    path: '/v1/reviews/:id/comments',
    tags,
    params,
    body: reviewCommentBodySchema,
    response: { 201: reviewCommentResponseSchema },
  }),
  resolve: defineRoute({
    method: 'POST',
    path: '/v1/reviews/:id/comments/:commentId/resolve',
    tags,
    params: reviewCommentParamsSchema,
    body: reviewResolveBodySchema,
    response: { 200: reviewCommentResponseSchema },
  }),
  viewed: defineRoute({
    method: 'PUT',
    path: '/v1/reviews/:id/viewed',
    tags,
    params,
    body: reviewViewedBodySchema,
    response: { 200: reviewViewedResponseSchema },
  }),
  applySuggestion: defineRoute({
    method: 'POST',
    path: '/v1/reviews/:id/comments/:commentId/apply',
    tags,
    params: reviewCommentParamsSchema,
    response: { 200: reviewApplyResponseSchema },
  }),
  verdict: defineRoute({
    method: 'POST',
    path: '/v1/reviews/:id/verdicts',
    tags,
    params,
    body: reviewVerdictBodySchema,
    response: { 200: reviewVerdictResponseSchema },
  }),
  squashMessage: defineRoute({
    method: 'PUT',
    path: '/v1/reviews/:id/squash-message',
    tags,
    params,
    body: squashMessageBodySchema,
    response: { 200: squashMessageResponseSchema },
  }),
  submit: defineRoute({
    method: 'POST',
    path: '/v1/reviews/:id/submissions',
    tags,
    params,
    body: reviewSubmissionBodySchema,
    response: { 201: reviewSubmissionResponseSchema },
  }),
};
