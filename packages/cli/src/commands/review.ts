import { gateRoutes, type ReviewDocument, reviewRoutes } from 'gatehouse-hitl-protocol';
import { choiceOption, intOption, requiredOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { describeDecision, lostRaceMessage, postDecision, whoAmI } from '../decide.js';
import { CliError, isApiError, UsageError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { printJson, printTable, relativeTime, terminalSafe } from '../output.js';
import { reviewMcpAction } from './review-mcp.js';
import { commentThreads, diffLines, printReview, useColour } from './review-print.js';

const REVIEW_ID = /^rev_[A-Za-z0-9_]{1,64}$/;
const COMMENT_ID = /^cmt_[A-Za-z0-9_]{1,64}$/;
const RUN_ID = /^run_[A-Za-z0-9_]{1,64}$/;

function reviewIdOf(context: ActionContext): string {
  const id = context.positionals[0] as string;
  if (!REVIEW_ID.test(id)) {
    throw new UsageError(
      `a review id looks like rev_… (got "${id}"); see gatehouse review list`,
      context.command,
    );
  }
  return id;
}

/** Without --run: the reviews waiting for a decision, found through the pending phase reviews. */
async function openReviews(client: ApiClient): Promise<ReviewDocument[]> {
  const gates = await client.call(gateRoutes.list, {
    query: { status: 'pending', type: 'phase_review', limit: 500 },
  });
  const runIds = [
    ...new Set(gates.items.map((gate) => gate.runId).filter((id): id is string => id !== null)),
  ];
  const lists = await Promise.all(
    runIds.map((runId) => client.call(reviewRoutes.listOfRun, { params: { id: runId } })),
  );
  return lists.flatMap((list) => list.items).filter((review) => review.status === 'open');
}

async function list(context: ActionContext): Promise<number> {
  const { io, values, command } = context;
  const runId = stringOption(values, 'run');
  if (runId !== undefined && !RUN_ID.test(runId)) {
    throw new UsageError(`--run takes a run id such as run_abc123 (got "${runId}")`, command);
  }
  const client = context.client();
  const items =
    runId === undefined
      ? await openReviews(client)
      : (await client.call(reviewRoutes.listOfRun, { params: { id: runId } })).items;
  items.sort((a, b) => b.updatedAt - a.updatedAt);
  if (context.json) {
    printJson(io, { items });
    return 0;
  }
  const now = io.now();
  printTable(
    io.stdout,
    ['ID', 'RUN', 'PHASE', 'STATUS', 'REV', 'UPDATED', 'BRANCH'],
    items.map((review) => [
      review.id,
      review.runId,
      `${review.phase} ${review.type}`,
      review.status,
      review.revision,
      relativeTime(review.updatedAt, now),
      review.branch,
    ]),
    runId === undefined ? 'no open reviews' : 'no reviews',
  );
  return 0;
}

async function show(context: ActionContext): Promise<number> {
  const id = reviewIdOf(context);
  const client = context.client();
  const [detail, files, comments] = await Promise.all([
    client.call(reviewRoutes.get, { params: { id } }),
    client.call(reviewRoutes.files, { params: { id } }),
    client.call(reviewRoutes.comments, { params: { id } }),
  ]);
  const view = { ...detail, files: files.files, comments: comments.items };
  if (context.json) printJson(context.io, view);
  else printReview(context.io.stdout, view);
  return 0;
}

async function diff(context: ActionContext): Promise<number> {
  const id = reviewIdOf(context);
  const client = context.client();
  const only = context.positionals[1];
  const paths =
    only === undefined
      ? (await client.call(reviewRoutes.files, { params: { id } })).files.map((file) => file.path)
      : [only];
  const diffs = await Promise.all(
    paths.map((path) => client.call(reviewRoutes.diff, { params: { id }, query: { path } })),
  );
  if (context.json) {
    printJson(context.io, { items: diffs });
    return 0;
  }
  const { stdout, env } = context.io;
  const colour = useColour(stdout, env);
  if (diffs.length === 0) stdout.write('no files changed\n');
  for (const answer of diffs) stdout.write(`${diffLines(answer.diff, colour).join('\n')}\n`);
  return 0;
}

async function comment(context: ActionContext): Promise<number> {
  const { values, command, io } = context;
  const id = reviewIdOf(context);
  const body = requiredOption(values, 'body', command);
  const path = stringOption(values, 'path');
  const line = intOption(values, 'line', { min: 1, max: 10_000_000, command });
  const side = choiceOption(values, 'side', ['new', 'old'] as const, command);
  const reply = stringOption(values, 'reply');
  if (line !== undefined && path === undefined)
    throw new UsageError('--line needs --path (the file)', command);
  if (side !== undefined && line === undefined)
    throw new UsageError('--side applies to a line comment (--line)', command);
  if (reply !== undefined && !COMMENT_ID.test(reply)) {
    throw new UsageError(`--reply takes a comment id such as cmt_abc123 (got "${reply}")`, command);
  }
  const answer = await context.client().call(reviewRoutes.comment, {
    params: { id },
    body: {
      body,
      ...(reply === undefined ? {} : { parentId: reply }),
      ...(path === undefined ? {} : { path }),
      ...(line === undefined ? {} : { line }),
      ...(side === undefined ? {} : { side }),
    },
  });
  if (context.json) printJson(io, answer);
  else
    io.stdout.write(`comment ${answer.comment.id} added\n${commentThreads([answer.comment]).join('\n')}\n`);
  return 0;
}

async function resolve(context: ActionContext): Promise<number> {
  const id = reviewIdOf(context);
  const commentId = context.positionals[1] as string;
  if (!COMMENT_ID.test(commentId)) {
    throw new UsageError(`a comment id looks like cmt_… (got "${commentId}")`, context.command);
  }
  const resolved = context.values.reopen !== true;
  const answer = await context
    .client()
    .call(reviewRoutes.resolve, { params: { id, commentId }, body: { resolved } });
  if (context.json) printJson(context.io, answer);
  else context.io.stdout.write(`thread ${commentId} ${resolved ? 'resolved' : 'reopened'}\n`);
  return 0;
}

/** Ends the review by deciding its phase review gate: approve (merge) or request changes. */
async function decideReview(context: ActionContext, option: 'approve' | 'request_changes'): Promise<number> {
  const { values, command, io } = context;
  const id = reviewIdOf(context);
  const feedback = option === 'request_changes' ? requiredOption(values, 'feedback', command) : undefined;
  const reason = stringOption(values, 'reason');
  const client = context.client();
  const { review } = await client.call(reviewRoutes.get, { params: { id } });
  if (review.gateId === null) {
    throw new CliError(`review ${id} has no phase review gate: it was ${review.status} without one`);
  }
  try {
    const decided = await postDecision(client, review.gateId, {
      option,
      ...(feedback === undefined ? {} : { feedback }),
      ...(reason === undefined ? {} : { reason }),
    });
    const after = await client.call(reviewRoutes.get, { params: { id } });
    if (context.json) {
      printJson(io, { ...decided, review: after.review });
      return 0;
    }
    const merged = after.review.mergeCommit
      ? `; merged into main as ${after.review.mergeCommit.slice(0, 12)}`
      : '';
    io.stdout.write(`${describeDecision(decided)}\nreview ${id}: ${after.review.status}${merged}\n`);
    return 0;
  } catch (error) {
    if (isApiError(error, 'MERGE_CONFLICT')) {
      const files = Array.isArray(error.details.conflicts) ? (error.details.conflicts as unknown[]) : [];
      io.stderr.write(`error MERGE_CONFLICT: ${terminalSafe(error.message)}\n`);
      for (const file of files) io.stderr.write(`  conflict: ${terminalSafe(file)}\n`);
      io.stderr.write('Request changes so the agent updates its branch from main.\n');
      return 1;
    }
    const lost = lostRaceMessage(
      error,
      isApiError(error, 'GATE_ALREADY_DECIDED') ? await whoAmI(client) : null,
    );
    if (lost === null) throw error;
    io.stderr.write(`${lost}\n`);
    return 1;
  }
}

const reviewId = { args: '<review-id>', positionals: { min: 1, max: 1 } };

/** `gatehouse review`: a phase branch's pull request, from the terminal. */
export const reviewCommand: Command = {
  name: 'review',
  summary: 'Review phase branches: list, show, diff, comment, resolve, approve, request changes',
  actions: [
    {
      name: 'list',
      summary: 'List the open reviews, or every review of one run',
      options: { run: { type: 'string', value: '<run-id>', description: 'Every review of this run' } },
      details: 'Without --run: the reviews waiting for a decision (their phase review gate is pending).',
      examples: ['gatehouse review list', 'gatehouse review list --run run_abc123 --json'],
      run: list,
    },
    {
      name: 'show',
      summary: 'Show a review: branch, status, files with +/− lines, comment threads and verdicts',
      ...reviewId,
      examples: ['gatehouse review show rev_abc123'],
      run: show,
    },
    {
      name: 'diff',
      summary: 'The unified diff of a review (one file, or all), with old and new line numbers',
      args: '<review-id> [<path>]',
      positionals: { min: 1, max: 2 },
      details: 'Coloured on a terminal (NO_COLOR turns it off). Binary files are named, not shown.',
      examples: [
        'gatehouse review diff rev_abc123',
        'gatehouse review diff rev_abc123 docs/plan.md | less -R',
      ],
      run: diff,
    },
    {
      name: 'comment',
      summary: 'Comment on a review: general, on a file, on a line, or a reply to a thread',
      ...reviewId,
      options: {
        body: { type: 'string', value: '<text>', description: 'The comment (required)' },
        path: { type: 'string', value: '<path>', description: 'The file, for a file or line comment' },
        line: {
          type: 'string',
          value: '<n>',
          description: 'The line (needs --path), as numbered by review diff',
        },
        side: {
          type: 'string',
          value: '<side>',
          description: 'new (the branch, default) or old (main), with --line',
        },
        reply: { type: 'string', value: '<comment-id>', description: 'Reply in this comment’s thread' },
      },
      examples: [
        'gatehouse review comment rev_abc123 --body "Looks good overall"',
        'gatehouse review comment rev_abc123 --path docs/plan.md --line 12 --body "Name the data source"',
        'gatehouse review comment rev_abc123 --reply cmt_xyz --body "Done"',
      ],
      run: comment,
    },
    {
      name: 'resolve',
      summary: 'Resolve a comment thread (or reopen it with --reopen)',
      args: '<review-id> <comment-id>',
      positionals: { min: 2, max: 2 },
      options: { reopen: { type: 'boolean', description: 'Reopen the thread instead' } },
      run: resolve,
    },
    {
      name: 'approve',
      summary:
        'Approve & merge: decide the phase review gate "approve"; the branch is squash-merged into main',
      ...reviewId,
      options: { reason: { type: 'string', value: '<text>', description: 'Why (told to the agent)' } },
      details:
        'Exit code 1 when the server refuses: MERGE_CONFLICT names the conflicting files (request changes\n' +
        'so the agent updates its branch), GATE_ALREADY_DECIDED when someone decided first.',
      examples: ['gatehouse review approve rev_abc123'],
      run: (context) => decideReview(context, 'approve'),
    },
    {
      name: 'request-changes',
      summary: 'Request changes: the agent resumes with your comments and feedback on a -rev- branch',
      ...reviewId,
      options: {
        feedback: { type: 'string', value: '<text>', description: 'What to change (required)' },
        reason: { type: 'string', value: '<text>', description: 'Why (told to the agent)' },
      },
      examples: ['gatehouse review request-changes rev_abc123 --feedback "Answer the two line comments"'],
      run: (context) => decideReview(context, 'request_changes'),
    },
    reviewMcpAction,
  ],
};
