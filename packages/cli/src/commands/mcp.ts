import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { DEFAULT_URL, normalizeUrl } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { mcpProxyAction } from './mcp-proxy.js';
import { RUN_ID, storedToken, untilSignal } from './mcp-shared.js';

interface McpSettings {
  url: string;
  token: string;
  runId: string | null;
  /** The person's token elicitation decides with; null never elicits. */
  operatorToken: string | null;
}

function settingsFrom(context: ActionContext): McpSettings {
  const { values, command, io } = context;
  const url = normalizeUrl(stringOption(values, 'url') ?? (io.env.GATEHOUSE_URL?.trim() || DEFAULT_URL));
  const token = stringOption(values, 'token') ?? (io.env.GATEHOUSE_TOKEN?.trim() || storedToken(io.env, url));
  if (!token)
    throw new UsageError('gatehouse mcp needs --token (or GATEHOUSE_TOKEN): the agent’s token', command);
  const runId = stringOption(values, 'run') ?? null;
  if (runId !== null && !RUN_ID.test(runId)) {
    throw new UsageError(`--run takes a run id such as run_abc123 (got "${runId}")`, command);
  }
  let operatorToken: string | null = null;
  if (values.elicit === true) {
    operatorToken =
      stringOption(values, 'operator-token') ??
      (io.env.GATEHOUSE_OPERATOR_TOKEN?.trim() || storedToken(io.env, url));
    if (!operatorToken) {
      throw new UsageError(
        '--elicit needs the person’s own token: run `gatehouse login`, or pass --operator-token',
        command,
      );
    }
  } else if (stringOption(values, 'operator-token') !== undefined) {
    throw new UsageError('--operator-token only applies with --elicit', command);
  }
  return { url, token, runId, operatorToken };
}

async function mcp(context: ActionContext): Promise<number> {
  const settings = settingsFrom(context);
  const stderr = context.io.stderr;
  // Loaded here only, so the other commands start without the MCP SDK.
  const { GatehouseApi, resolveOperator, serveStdio } = await import('gatehouse-hitl-mcp');
  const log = {
    warn: (object: object, message: string) =>
      void stderr.write(`gatehouse mcp: ${message} ${JSON.stringify(object)}\n`),
    error: (object: object, message: string) =>
      void stderr.write(`gatehouse mcp: ${message} ${JSON.stringify(object)}\n`),
  };
  const operator =
    settings.operatorToken === null
      ? null
      : await resolveOperator(new GatehouseApi({ url: settings.url, token: settings.operatorToken })).catch(
          (error: unknown) => {
            throw new CliError(`--elicit: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
  const server = await serveStdio({
    url: settings.url,
    token: settings.token,
    runId: settings.runId,
    operator,
    // With --elicit, a client with URL-mode elicitation is sent to the gate's page on this server.
    gatePages: settings.operatorToken === null ? null : settings.url,
    log,
  });
  const signal = untilSignal();
  await Promise.race([server.closed, signal.stopped]);
  signal.dispose();
  await server.close();
  return 0;
}

/** `gatehouse mcp`: the Gatehouse MCP server over stdio, for MCP clients that start a process. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve the Gatehouse MCP tools over stdio (for Claude Desktop, Cursor, any MCP client)',
  actions: [
    {
      name: '',
      summary: 'Serve the Gatehouse MCP server on stdin/stdout, talking to a running Gatehouse server',
      json: false,
      options: {
        url: {
          type: 'string',
          value: '<url>',
          description: `The Gatehouse server (GATEHOUSE_URL; default ${DEFAULT_URL})`,
        },
        token: {
          type: 'string',
          value: '<token>',
          description:
            'The agent’s token, gha_… (GATEHOUSE_TOKEN); a person’s token only reads and logs decisions',
        },
        run: {
          type: 'string',
          value: '<run-id>',
          description: 'The run tools use when they are not given one',
        },
        elicit: {
          type: 'boolean',
          description: 'Let the person at the MCP client answer pending gates there (off by default)',
        },
        'operator-token': {
          type: 'string',
          value: '<token>',
          description:
            'With --elicit: that person’s token (GATEHOUSE_OPERATOR_TOKEN; default: gatehouse login)',
        },
      },
      details:
        'Speaks MCP on stdin/stdout until the client hangs up; messages go to stderr. Tools:\n' +
        'gatehouse_request_approval, gatehouse_wait_for_decision, guardrails_report_confidence,\n' +
        'guardrails_get_context, guardrails_log_decision, gatehouse_checkpoint, gatehouse_get_interventions,\n' +
        'gatehouse_journal_append, gatehouse_analyze_change. A reviewer’s assistant uses\n' +
        '`gatehouse review mcp` instead.\n' +
        'Resources: gatehouse://runs/{runId}/briefing and gatehouse://runs/{runId}/gates/pending.\n' +
        'With --elicit, a pending gate the person may decide (role, assignees, no signature) is offered\n' +
        'to them in the client, and their answer is recorded with their own token; a client with URL-mode\n' +
        "elicitation is sent to the gate's page instead when the person may not answer it there. The same server is\n" +
        'served over Streamable HTTP at /mcp of every Gatehouse server.',
      examples: [
        'gatehouse mcp --url http://127.0.0.1:7300 --token gha_…',
        'gatehouse mcp --token gha_… --run run_abc123 --elicit',
      ],
      run: mcp,
    },
    mcpProxyAction,
  ],
};
