import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { commitIdSchema, fileContentSchema, fileDiffSchema, repoPathSchema } from './reviews.js';
import { runParamsSchema as params } from './runs.js';

/** A branch name or commit the workspace routes read at: `main`, a phase branch, or a commit id. */
export const gitRefSchema = z
  .string()
  .regex(
    /^(main|phase-[1-9][0-9]{0,4}-(strategic|tactical)(-rev-[1-9][0-9]{0,3})?|[0-9a-f]{7,40})$/,
    'a ref is main, a phase branch (phase-N-type, phase-N-type-rev-M) or a commit id',
  )
  .describe('main, a phase branch or a commit id');

/** `GET /v1/runs/:id/workspace`. */
export const workspaceResponseSchema = z.object({
  gitUrl: z.string().describe('Clone URL (smart HTTP, authenticated like the API)'),
  mainBranch: z.string(),
  branches: z.array(z.object({ name: z.string(), head: z.string() })),
  openReviewId: z.string().nullable(),
});

/** `GET /v1/runs/:id/workspace/files?ref=&path=`. */
export const workspaceFilesQuerySchema = z.strictObject({
  ref: gitRefSchema.default('main'),
  path: repoPathSchema.optional().describe('Only files under this folder'),
});
export const workspaceFilesResponseSchema = z.object({
  ref: z.string(),
  commit: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number() })),
  truncated: z.boolean(),
});

/** `GET /v1/runs/:id/workspace/file?ref=&path=`. */
export const workspaceFileQuerySchema = z.strictObject({
  ref: gitRefSchema.default('main'),
  path: repoPathSchema,
});
export const workspaceFileResponseSchema = z.object({ file: fileContentSchema });

/** `GET /v1/runs/:id/workspace/log?ref=&path=&limit=`. */
export const workspaceLogQuerySchema = z.strictObject({
  ref: gitRefSchema.default('main'),
  path: repoPathSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const commitDocumentSchema = z.object({
  commit: z.string(),
  parents: z.array(z.string()),
  authorName: z.string(),
  authorEmail: z.string(),
  authoredAt: z.number().describe('Epoch ms'),
  subject: z.string(),
  body: z.string(),
});
export const workspaceLogResponseSchema = z.object({ commits: z.array(commitDocumentSchema) });

/** `GET /v1/runs/:id/workspace/show?commit=`. */
export const workspaceShowQuerySchema = z.strictObject({ commit: commitIdSchema });
export const workspaceShowResponseSchema = z.object({
  commit: commitDocumentSchema,
  files: z.array(fileDiffSchema),
});

/** `GET /v1/runs/:id/workspace/diff?from=&to=&path=`. */
export const workspaceDiffQuerySchema = z.strictObject({
  from: gitRefSchema.default('main'),
  to: gitRefSchema,
  path: repoPathSchema.optional(),
});
export const workspaceDiffResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  files: z.array(fileDiffSchema),
  truncated: z.boolean(),
});

export type WorkspaceResponse = z.infer<typeof workspaceResponseSchema>;
export type WorkspaceFilesResponse = z.infer<typeof workspaceFilesResponseSchema>;
export type WorkspaceFileResponse = z.infer<typeof workspaceFileResponseSchema>;
export type CommitDocument = z.infer<typeof commitDocumentSchema>;
export type WorkspaceLogResponse = z.infer<typeof workspaceLogResponseSchema>;
export type WorkspaceShowResponse = z.infer<typeof workspaceShowResponseSchema>;
export type WorkspaceDiffResponse = z.infer<typeof workspaceDiffResponseSchema>;

/** `GET /v1/runs/:id/workspace.git/info/refs?service=`: git's smart-HTTP ref advertisement. */
export const gitInfoRefsQuerySchema = z.strictObject({
  service: z.enum(['git-upload-pack', 'git-receive-pack']).describe('The git service the client starts'),
});

/** What git's smart-HTTP routes answer: pkt-lines and packs for the git client, not JSON. */
export const gitSmartHttpResponseSchema = z
  .string()
  .describe('git smart-HTTP payload (application/x-git-*-result or -advertisement), for the git client');

const tags = ['workspace'];

/** A run's workspace: its clone URL and branches, and its files, history and diffs at any ref. */
export const workspaceRoutes = {
  summary: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace',
    tags,
    params,
    response: { 200: workspaceResponseSchema },
  }),
  files: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace/files',
    tags,
    params,
    query: workspaceFilesQuerySchema,
    response: { 200: workspaceFilesResponseSchema },
  }),
  file: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace/file',
    tags,
    params,
    query: workspaceFileQuerySchema,
    response: { 200: workspaceFileResponseSchema },
  }),
  log: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace/log',
    tags,
    params,
    query: workspaceLogQuerySchema,
    response: { 200: workspaceLogResponseSchema },
  }),
  show: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace/show',
    tags,
    params,
    query: workspaceShowQuerySchema,
    response: { 200: workspaceShowResponseSchema },
  }),
  diff: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/workspace/diff',
    tags,
    params,
    query: workspaceDiffQuerySchema,
    response: { 200: workspaceDiffResponseSchema },
  }),
};
