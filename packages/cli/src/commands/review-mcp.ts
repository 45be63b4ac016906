import { stringOption } from '../args.js';
import type { Action, ActionContext } from '../command.js';
import { DEFAULT_URL, normalizeUrl, readStoredCredentials } from '../credentials.js';
import { UsageError } from '../errors.js';

const RUN_ID = /^run_[A-Za-z0-9_]{1,64}$/;

/** The person's token: --token, GATEHOUSE_TOKEN, or the stored login for this server. */
function tokenFor(context: ActionContext, url: string): string {
  const { values, io, command } = context;
  const stored = readStoredCredentials(io.env);
  const token =
    stringOption(values, 'token') ??
    (io.env.GATEHOUSE_TOKEN?.trim() || (stored && normalizeUrl(stored.url) === url ? stored.token : null));
  if (!token) {
    throw new UsageError(
      'gatehouse review mcp needs a person’s token: run `gatehouse login`, or pass --token',
      command,
    );
  }
  return token;
}

async function serveReviewSession(context: ActionContext): Promise<number> {
  const { values, io, command } = context;
  const runId = stringOption(values, 'run');
  if (runId === undefined) throw new UsageError('gatehouse review mcp needs --run <run-id>', command);
  if (!RUN_ID.test(runId))
    throw new UsageError(`--run takes a run id such as run_abc123 (got "${runId}")`, command);
  const url = normalizeUrl(stringOption(values, 'url') ?? (io.env.GATEHOUSE_URL?.trim() || DEFAULT_URL));
  const token = tokenFor(context, url);
  // Loaded here only, so the other commands start without the MCP SDK.
  const { serveStdio } = await import('gatehouse-hitl-mcp');
  const write = (object: object, message: string) =>
    void io.stderr.write(`gatehouse review mcp: ${message} ${JSON.stringify(object)}\n`);
  const server = await serveStdio({ url, token, runId, review: true, log: { warn: write, error: write } });
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await Promise.race([server.closed, stopped]);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await server.close();
  return 0;
}

/** `gatehouse review mcp`: a review session's MCP tools over stdio, for a reviewer's assistant. */
export const reviewMcpAction: Action = {
  name: 'mcp',
  summary: 'Serve the review session’s MCP tools over stdio: one run, with your (a person’s) token',
  json: false,
  options: {
    run: {
      type: 'string',
      value: '<run-id>',
      description: 'The run to review (required); other runs are refused',
    },
    url: {
      type: 'string',
      value: '<url>',
      description: `The Gatehouse server (GATEHOUSE_URL; default ${DEFAULT_URL})`,
    },
    token: {
      type: 'string',
      value: '<token>',
      description: 'A person’s token (GATEHOUSE_TOKEN; default: gatehouse login)',
    },
  },
  details:
    'Speaks MCP on stdin/stdout until the client hangs up. Tools: list_workspace_files, read_workspace_file,\n' +
    'search_workspace, vector_search, git_log, git_diff, git_show, git_status, write_file, edit_file,\n' +
    'add_review_comment, get_review, get_audit_trail, search_audit, get_run, get_chat_history, get_todos,\n' +
    'get_llm_request. Edits and comments are made in your name; approving stays with you\n' +
    '(gatehouse review approve|request-changes, or the web app). See docs/review-session.md.',
  examples: [
    'gatehouse review mcp --run run_abc123',
    'claude mcp add gatehouse-review -- gatehouse review mcp --run run_abc123',
  ],
  run: serveReviewSession,
};
