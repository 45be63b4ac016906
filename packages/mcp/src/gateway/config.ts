import { z } from 'zod';

/** An upstream MCP server started as a process that speaks MCP on stdin/stdout. */
export interface StdioUpstream {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
}

/** An upstream MCP server reached over Streamable HTTP. */
export interface HttpUpstream {
  kind: 'http';
  name: string;
  url: string;
  headers: Record<string, string>;
}

export type UpstreamConfig = StdioUpstream | HttpUpstream;

/** Server names become tool-name prefixes, so `__` (the separator) may not appear in them. */
const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!_|$)){0,47}$/;

const stringMap = z.record(z.string(), z.string());

const stdioEntry = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).default([]),
    env: stringMap.default({}),
    cwd: z.string().min(1).optional(),
  })
  .passthrough();

const httpEntry = z
  .object({
    type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
    url: z.string().url('url must be an http(s) URL'),
    headers: stringMap.default({}),
  })
  .passthrough();

const configFile = z.object({ mcpServers: z.record(z.string(), z.unknown()) });

/** A configuration error naming the place in the file and the fix. */
export class GatewayConfigError extends Error {
  override readonly name = 'GatewayConfigError';
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` with the environment's values, as Claude Code does in
 * `.mcp.json`, so tokens can stay out of the file. An unset variable without a default is an error.
 */
export function expandEnv(text: string, env: Record<string, string | undefined>, where: string): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback as string;
    throw new GatewayConfigError(
      `${where}: environment variable ${name} is not set (write \${${name}:-default} for a default)`,
    );
  });
}

function expandMap(map: Record<string, string>, env: Record<string, string | undefined>, where: string) {
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [key, expandEnv(value, env, `${where}.${key}`)]),
  );
}

function issueText(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
  return `${where}${path}: ${issue?.message ?? 'invalid'}`;
}

/** Checks one `mcpServers` entry and expands `${VAR}` in its strings. */
export function parseUpstream(
  name: string,
  entry: unknown,
  env: Record<string, string | undefined>,
): UpstreamConfig {
  const where = `mcpServers.${name}`;
  if (!SERVER_NAME.test(name)) {
    throw new GatewayConfigError(
      `${where}: a server name is 1–48 letters, digits, "-" or "_", without "__" and not ending in "_" (it prefixes tool names as <server>__<tool>)`,
    );
  }
  if (typeof entry !== 'object' || entry === null)
    throw new GatewayConfigError(`${where}: must be an object`);
  if ('url' in entry) {
    if ((entry as { type?: unknown }).type === 'sse') {
      throw new GatewayConfigError(
        `${where}.type: "sse" is not supported; use the server's Streamable HTTP URL`,
      );
    }
    const parsed = httpEntry.safeParse(entry);
    if (!parsed.success) throw new GatewayConfigError(issueText(parsed.error, where));
    const url = expandEnv(parsed.data.url, env, `${where}.url`);
    if (!/^https?:\/\//.test(url)) throw new GatewayConfigError(`${where}.url: must be an http(s) URL`);
    return { kind: 'http', name, url, headers: expandMap(parsed.data.headers, env, `${where}.headers`) };
  }
  const parsed = stdioEntry.safeParse(entry);
  if (!parsed.success) {
    throw new GatewayConfigError(
      'command' in entry
        ? issueText(parsed.error, where)
        : `${where}: give "command" (stdio) or "url" (HTTP)`,
    );
  }
  const { command, args, cwd } = parsed.data;
  return {
    kind: 'stdio',
    name,
    command: expandEnv(command, env, `${where}.command`),
    args: args.map((arg, index) => expandEnv(arg, env, `${where}.args.${index}`)),
    env: expandMap(parsed.data.env, env, `${where}.env`),
    cwd: cwd === undefined ? null : expandEnv(cwd, env, `${where}.cwd`),
  };
}

/**
 * Reads a configuration in the shape Claude Desktop, Claude Code (`.mcp.json`) and Cursor use:
 * `{ "mcpServers": { "<name>": { "command", "args", "env" } | { "type": "http", "url", "headers" } } }`.
 * Entries with `"disabled": true` are left out.
 */
export function parseGatewayConfig(text: string, env: Record<string, string | undefined>): UpstreamConfig[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GatewayConfigError(`the configuration is not JSON: ${(error as Error).message}`);
  }
  const parsed = configFile.safeParse(json);
  if (!parsed.success) throw new GatewayConfigError('the configuration needs an "mcpServers" object');
  const upstreams = Object.entries(parsed.data.mcpServers)
    .filter(([, entry]) => (entry as { disabled?: unknown } | null)?.disabled !== true)
    .map(([name, entry]) => parseUpstream(name, entry, env));
  if (upstreams.length === 0) throw new GatewayConfigError('mcpServers lists no enabled server');
  return upstreams;
}
