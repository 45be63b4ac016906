import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CommitDocument,
  commitIdSchema,
  gitRefSchema,
  repoPathSchema,
  reviewDocumentSchema,
  workspaceDiffResponseSchema,
  workspaceLogResponseSchema,
  workspaceShowResponseSchema,
} from 'gatehouse-hitl-protocol';
import { z } from 'zod';
import type { Extra } from './decision.js';
import { guarded, toolResult } from './results.js';
import {
  activeReview,
  defaultRef,
  diffText,
  type ReviewContext,
  runOf,
  sessionRunInput,
} from './review-session.js';
import type { ArgsOf } from './schemas.js';

const logInput = {
  runId: sessionRunInput.optional(),
  ref: gitRefSchema.optional().describe('Branch or commit; default: the branch under review, else main'),
  path: repoPathSchema.optional().describe('Only commits that touch this path'),
  limit: z.number().int().min(1).max(500).optional().describe('At most this many commits (default 50)'),
};

const diffInput = {
  runId: sessionRunInput.optional(),
  from: gitRefSchema.optional().describe('The old side (default main)'),
  to: gitRefSchema.optional().describe('The new side (default: the branch under review)'),
  path: repoPathSchema.optional().describe('Only this file or folder'),
};

const showInput = { runId: sessionRunInput.optional(), commit: commitIdSchema };

const statusInput = { runId: sessionRunInput.optional() };

const statusOutput = z.object({
  gitUrl: z.string().describe('Clone URL (authenticated like the API)'),
  mainBranch: z.string(),
  branches: z.array(z.object({ name: z.string(), head: z.string() })),
  openReview: reviewDocumentSchema
    .nullable()
    .describe('The review in progress (waiting for a decision, or for the agent’s revision), if any'),
  head: z.string().nullable().describe('The head of the branch under review, else of main'),
});

function commitLine(commit: CommitDocument): string {
  const at = new Date(commit.authoredAt).toISOString();
  return `${commit.commit.slice(0, 12)} ${at} ${commit.authorName} <${commit.authorEmail}>: ${commit.subject}`;
}

async function gitLog(ctx: ReviewContext, args: ArgsOf<typeof logInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const ref = args.ref ?? (await defaultRef(ctx, extra.signal));
  const answer = await ctx.reviews.log(
    runId,
    { ref, limit: args.limit ?? 50, ...(args.path === undefined ? {} : { path: args.path }) },
    extra.signal,
  );
  return toolResult(answer, [
    `${answer.commits.length} commit(s) on ${ref}`,
    ...answer.commits.map(commitLine),
  ]);
}

async function gitDiff(ctx: ReviewContext, args: ArgsOf<typeof diffInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const to = args.to ?? (await defaultRef(ctx, extra.signal));
  const query = { from: args.from ?? 'main', to, ...(args.path === undefined ? {} : { path: args.path }) };
  const answer = await ctx.reviews.diff(runId, query, extra.signal);
  return toolResult(answer, [
    `${answer.files.length} file(s) changed from ${query.from} (${answer.from.slice(0, 12)}) to ${to} (${answer.to.slice(0, 12)})`,
    ...answer.files.flatMap(diffText),
    answer.truncated ? '(more files: the diff was cut at the size limit; pass a path)' : null,
  ]);
}

async function gitShow(ctx: ReviewContext, args: ArgsOf<typeof showInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const answer = await ctx.reviews.show(runId, args.commit, extra.signal);
  return toolResult(answer, [
    commitLine(answer.commit),
    answer.commit.body === '' ? null : answer.commit.body,
    ...answer.files.flatMap(diffText),
  ]);
}

async function gitStatus(ctx: ReviewContext, args: ArgsOf<typeof statusInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const [workspace, openReview] = await Promise.all([
    ctx.reviews.workspace(runId, extra.signal),
    activeReview(ctx, extra.signal),
  ]);
  const main = workspace.branches.find((branch) => branch.name === workspace.mainBranch);
  const head = openReview?.headCommit ?? main?.head ?? null;
  const output = {
    gitUrl: workspace.gitUrl,
    mainBranch: workspace.mainBranch,
    branches: workspace.branches,
    openReview,
    head,
  };
  return toolResult(output, [
    `run ${runId}: ${workspace.branches.length} branch(es); clone ${workspace.gitUrl}`,
    ...workspace.branches.map((branch) => `  ${branch.name} ${branch.head.slice(0, 12)}`),
    openReview === null
      ? 'No review in progress.'
      : `Review ${openReview.id} (${openReview.status}): ${openReview.branch} (phase ${openReview.phase} ${openReview.type}, revision ${openReview.revision}), head ${openReview.headCommit.slice(0, 12)}`,
  ]);
}

/** git_log, git_diff, git_show and git_status over the run's workspace repository. */
export function registerReviewGitTools(server: McpServer, ctx: ReviewContext): void {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    'git_log',
    {
      title: 'Git log',
      description: 'Commits of a branch (default: the branch under review), newest first, with authors.',
      inputSchema: z.strictObject(logInput),
      outputSchema: workspaceLogResponseSchema,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => gitLog(ctx, args, extra)),
  );
  server.registerTool(
    'git_diff',
    {
      title: 'Git diff',
      description:
        'What changed between two refs (default: main to the branch under review), as hunks with old and new line numbers.',
      inputSchema: z.strictObject(diffInput),
      outputSchema: workspaceDiffResponseSchema,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => gitDiff(ctx, args, extra)),
  );
  server.registerTool(
    'git_show',
    {
      title: 'Git show',
      description: 'One commit: its author, message and diff.',
      inputSchema: z.strictObject(showInput),
      outputSchema: workspaceShowResponseSchema,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => gitShow(ctx, args, extra)),
  );
  server.registerTool(
    'git_status',
    {
      title: 'Git status',
      description:
        'The run’s repository: its branches and heads, the clone URL, and the open review with its head.',
      inputSchema: z.strictObject(statusInput),
      outputSchema: statusOutput,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => gitStatus(ctx, args, extra)),
  );
}
