import { z } from 'zod';

// The shapes of a review's revisions, timeline (submitted reviews) and squash message.

/** One revision of a review: `-rev-M` branches after requests for changes. */
export const reviewRevisionSchema = z.object({
  revision: z.number(),
  branch: z.string(),
  headCommit: z.string().describe('The head it ended on (the live head for the current revision)'),
});

export const reviewSubmissionVerdictSchema = z
  .enum(['approve', 'comment', 'request_changes'])
  .describe('approve, comment (no verdict) or request_changes');

/** An entry of the review's timeline: a submitted review's summary, or a request for changes. */
export const reviewSummarySchema = z
  .object({
    id: z.string(),
    revision: z.number().describe('The revision it was given on'),
    kind: reviewSubmissionVerdictSchema,
    body: z.string().describe('The summary, or the feedback of a request for changes'),
    author: z.string().describe('`user:<id>`'),
    authorName: z.string(),
    commit: z.string().describe('The head it was given on'),
    createdAt: z.number(),
  })
  .describe('A submitted review or a request for changes, kept in the conversation');

export const squashMessageSchema = z
  .object({
    title: z.string(),
    body: z.string(),
    edited: z.boolean().describe('A person edited it; else the default from the phase'),
  })
  .describe('The squash commit’s message (trailers are added on merge)');

/** `POST /v1/reviews/:id/submissions`: submits the person's pending review with a summary. */
export const reviewSubmissionBodySchema = z.strictObject({
  verdict: reviewSubmissionVerdictSchema,
  body: z
    .string()
    .trim()
    .max(20_000)
    .default('')
    .describe('The summary; required to request changes, and to comment without pending comments'),
});
export const reviewSubmissionResponseSchema = z.object({
  summary: reviewSummarySchema,
  published: z.number().describe('Pending comments published with it'),
});

/** `PUT /v1/reviews/:id/squash-message`: the title and body the squash commit will carry. */
export const squashMessageBodySchema = z.strictObject({
  title: z
    .string()
    .trim()
    .min(1, 'the title is required')
    .max(200)
    .refine((title) => !/[\r\n]/.test(title), 'the title is one line')
    .describe('The commit’s first line'),
  body: z.string().max(20_000).default('').describe('The commit’s body, before the trailers'),
});
export const squashMessageResponseSchema = z.object({ squashMessage: squashMessageSchema });

export type ReviewRevision = z.infer<typeof reviewRevisionSchema>;
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;
export type ReviewSubmissionBody = z.input<typeof reviewSubmissionBodySchema>;
export type ReviewSubmissionResponse = z.infer<typeof reviewSubmissionResponseSchema>;
export type SquashMessage = z.infer<typeof squashMessageSchema>;
export type SquashMessageBody = z.input<typeof squashMessageBodySchema>;
