import { readFileSync } from 'node:fs';
import type { UpstreamConfig } from 'gatehouse-hitl-mcp';
import { intOption, listOption, stringOption } from '../args.js';
import type { Action, ActionContext } from '../command.js';
import { DEFAULT_URL, normalizeUrl } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { RUN_ID, storedToken, untilSignal } from './mcp-shared.js';

const COMMAND = 'mcp proxy';

interface ProxySettings {
  url: string;
  /** Null with --http: there each client sends its own token. */
  token: string | null;
  runId: string | null;
  http: { host: string; port: number } | null;
  progressIntervalMs: number;
}

function settingsFrom(context: ActionContext): ProxySettings {
  const { values, io } = context;
  const url = normalizeUrl(stringOption(values, 'url') ?? (io.env.GATEHOUSE_URL?.trim() || DEFAULT_URL));
  const runId = stringOption(values, 'run') ?? null;
  if (runId !== null && !RUN_ID.test(runId)) {
    throw new UsageError(`--run takes a run id such as run_abc123 (got "${runId}")`, COMMAND);
  }
  const progressSeconds = intOption(values, 'progress-seconds', { min: 1, max: 60, command: COMMAND }) ?? 5;
  const base = { url, runId, progressIntervalMs: progressSeconds * 1000 };
  if (values.http === true) {
    if (stringOption(values, 'token') !== undefined) {
      throw new UsageError('--token does not apply with --http: each client sends its own token', COMMAND);
    }
    const port = intOption(values, 'port', { min: 0, max: 65_535, command: COMMAND }) ?? 7310;
    return { ...base, token: null, http: { host: stringOption(values, 'host') ?? '127.0.0.1', port } };
  }
  for (const flag of ['host', 'port']) {
    if (stringOption(values, flag) !== undefined)
      throw new UsageError(`--${flag} only applies with --http`, COMMAND);
  }
  const token = stringOption(values, 'token') ?? (io.env.GATEHOUSE_TOKEN?.trim() || storedToken(io.env, url));
  if (!token)
    throw new UsageError(
      'gatehouse mcp proxy needs --token (or GATEHOUSE_TOKEN): the agent’s token',
      COMMAND,
    );
  return { ...base, token, http: null };
}

function headerMap(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at <= 0) throw new UsageError(`--header takes "Name: value" (got "${line}")`, COMMAND);
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** The upstreams: a configuration file, or one server given by --upstream or a command after `--`. */
async function upstreamsFrom(context: ActionContext): Promise<UpstreamConfig[]> {
  const { values, positionals, io } = context;
  const { GatewayConfigError, parseGatewayConfig, parseUpstream } = await import('gatehouse-hitl-mcp');
  const config = stringOption(values, 'config');
  const upstream = stringOption(values, 'upstream');
  const given = [config !== undefined, upstream !== undefined, positionals.length > 0].filter(Boolean).length;
  if (given !== 1) {
    throw new UsageError(
      'give exactly one of --config <file>, --upstream <url> or -- <command> [args…]',
      COMMAND,
    );
  }
  const headers = listOption(values, 'header');
  if (headers.length > 0 && upstream === undefined)
    throw new UsageError('--header only applies with --upstream', COMMAND);
  const name = stringOption(values, 'name') ?? 'upstream';
  if (config !== undefined && stringOption(values, 'name') !== undefined) {
    throw new UsageError('--name does not apply with --config: the file names its servers', COMMAND);
  }
  try {
    if (config !== undefined) {
      let text: string;
      try {
        text = readFileSync(config, 'utf8');
      } catch (error) {
        throw new CliError(`--config: cannot read ${config}: ${(error as Error).message}`);
      }
      return parseGatewayConfig(text, io.env);
    }
    const entry =
      upstream !== undefined
        ? { url: upstream, headers: headerMap(headers) }
        : { command: positionals[0], args: positionals.slice(1) };
    return [parseUpstream(name, entry, io.env)];
  } catch (error) {
    if (error instanceof GatewayConfigError) throw new UsageError(error.message, COMMAND);
    throw error;
  }
}

async function proxy(context: ActionContext): Promise<number> {
  const settings = settingsFrom(context);
  const upstreams = await upstreamsFrom(context);
  const stderr = context.io.stderr;
  const { serveGatewayHttp, serveGatewayStdio } = await import('gatehouse-hitl-mcp');
  const log = {
    warn: (object: object, message: string) =>
      void stderr.write(`gatehouse mcp proxy: ${message} ${JSON.stringify(object)}\n`),
    error: (object: object, message: string) =>
      void stderr.write(`gatehouse mcp proxy: ${message} ${JSON.stringify(object)}\n`),
  };
  const common = {
    upstreams,
    url: settings.url,
    runId: settings.runId,
    progressIntervalMs: settings.progressIntervalMs,
    log,
  };
  const start = () =>
    settings.http === null
      ? serveGatewayStdio({ ...common, token: settings.token as string })
      : serveGatewayHttp({ ...common, ...settings.http });
  const gateway = await start().catch((error: unknown) => {
    throw new CliError(error instanceof Error ? error.message : String(error));
  });
  if ('url' in gateway) stderr.write(`gatehouse mcp proxy: serving MCP at ${gateway.url}\n`);
  const signal = untilSignal();
  await Promise.race([gateway.closed, signal.stopped]);
  signal.dispose();
  await gateway.close();
  return 0;
}

/** `gatehouse mcp proxy`: fronts other MCP servers and puts every tool call through the policy. */
export const mcpProxyAction: Action = {
  name: 'proxy',
  summary: 'Front other MCP servers: every tool call goes through the Gatehouse policy first',
  args: '[-- <command> [args…]]',
  positionals: { min: 0, max: 1000 },
  json: false,
  options: {
    config: {
      type: 'string',
      value: '<file>',
      description: 'A JSON file with "mcpServers", as Claude Desktop, Claude Code and Cursor write it',
    },
    upstream: { type: 'string', value: '<url>', description: 'One upstream over Streamable HTTP' },
    header: {
      type: 'string',
      multiple: true,
      value: '<name: value>',
      description: 'With --upstream: an HTTP header sent to it (repeatable)',
    },
    name: {
      type: 'string',
      value: '<server>',
      description: 'With --upstream or a command: the tool-name prefix (default "upstream")',
    },
    url: {
      type: 'string',
      value: '<url>',
      description: `The Gatehouse server (GATEHOUSE_URL; default ${DEFAULT_URL})`,
    },
    token: {
      type: 'string',
      value: '<token>',
      description: 'The agent’s token, gha_… (GATEHOUSE_TOKEN); not with --http',
    },
    run: { type: 'string', value: '<run-id>', description: 'The run every tool call belongs to' },
    http: { type: 'boolean', description: 'Serve Streamable HTTP at /mcp instead of stdio' },
    host: { type: 'string', value: '<host>', description: 'With --http: the address (default 127.0.0.1)' },
    port: {
      type: 'string',
      value: '<port>',
      description: 'With --http: the port (default 7310; 0 picks one)',
    },
    'progress-seconds': {
      type: 'string',
      value: '<n>',
      description: 'Seconds between progress notifications while a gate waits (1–60, default 5)',
    },
  },
  details:
    'Connects to the upstream MCP servers (stdio commands or Streamable HTTP URLs) and serves their\n' +
    'tools, resources and prompts unchanged, with tool and prompt names as <server>__<name>. Each\n' +
    'tools/call asks the policy first (tool: <server>__<tool>, args: the call’s arguments): allowed calls\n' +
    'go through; denied ones return a tool error with the policy’s reason; a gate waits for a person\n' +
    'while sending progress notifications, then calls the tool (with the person’s edited arguments when\n' +
    'they edited) or returns a tool error saying it was rejected, steered or timed out.\n' +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax the configuration takes
    'Configuration strings may use ${VAR} and ${VAR:-default}. With --http, each client sends its own\n' +
    'Gatehouse token as Authorization: Bearer. See docs/mcp-gateway.md.',
  examples: [
    'gatehouse mcp proxy --config .mcp.json --token gha_…',
    'gatehouse mcp proxy --name files -- npx -y @modelcontextprotocol/server-filesystem /srv/data',
    'gatehouse mcp proxy --upstream https://mcp.example.com/mcp --header "Authorization: Bearer $KEY"',
    'gatehouse mcp proxy --config mcp.json --http --port 7310',
  ],
  run: proxy,
};
