import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ErrorCode,
  type GetPromptRequest,
  type GetPromptResult,
  McpError,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { GATED_METHODS, namespaced, splitName } from './names.js';
import type { ResourceRouter } from './resources.js';
import { askGatehouse, type ToolGateOptions } from './tool-call.js';
import { atUpstream, type UpstreamPool } from './upstreams.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A refusal as a JSON-RPC error with the tool error's words. A plain error with a code: the SDK
 * would put "MCP error <code>: " before an McpError's message once more.
 */
function refused(refusal: CallToolResult): Error {
  const text = refusal.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return Object.assign(new Error(text), { code: ErrorCode.InvalidRequest });
}

function approvedText(args: Record<string, unknown>, field: string): string {
  const value = args[field];
  if (typeof value === 'string' && value !== '') return value;
  throw new McpError(ErrorCode.InvalidParams, `the approved arguments give no ${field}; ask again`);
}

function approvedPromptArguments(value: unknown): Record<string, string> {
  const isStrings =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string');
  if (isStrings) return value as Record<string, string>;
  throw new McpError(ErrorCode.InvalidParams, 'the approved prompt arguments must map names to strings');
}

/**
 * One `resources/read` through the gateway: the policy decides on `<server>__resources/read` with
 * `{ uri }` (the URI the upstream knows the resource by), as for a tool call; only an approval reads,
 * the URI a person edited when they edited it.
 */
export async function gatedResourceRead(
  resources: ResourceRouter,
  options: ToolGateOptions,
  uri: string,
  extra: Extra,
): Promise<ReadResourceResult> {
  const { upstream, upstreamUri } = await resources.route(uri, extra.signal);
  const answer = await askGatehouse(
    options,
    {
      name: namespaced(upstream.name, GATED_METHODS.readResource),
      args: { uri: upstreamUri },
      title: `read ${upstreamUri} on ${upstream.name}`,
      context: { via: 'mcp gateway', mcpServer: upstream.name, mcpResource: upstreamUri },
    },
    extra,
  );
  if (!answer.approved) throw refused(answer.refusal);
  const read = approvedText(answer.args, 'uri');
  const shown = read === upstreamUri ? uri : read;
  return atUpstream(() => resources.readAt(upstream, read, shown, extra.signal));
}

/**
 * One `prompts/get` through the gateway: the policy decides on `<server>__prompts/get` with
 * `{ name, arguments }` (the upstream's own prompt name); only an approval gets the prompt.
 */
export async function gatedPromptGet(
  pool: UpstreamPool,
  options: ToolGateOptions,
  params: GetPromptRequest['params'],
  extra: Extra,
): Promise<GetPromptResult> {
  const target = splitName(params.name);
  const upstream = target === null ? undefined : pool.get(target.server);
  if (target === null || upstream?.capabilities.prompts === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `unknown prompt "${params.name}"`);
  }
  const answer = await askGatehouse(
    options,
    {
      name: namespaced(target.server, GATED_METHODS.getPrompt),
      args: { name: target.name, arguments: params.arguments ?? {} },
      title: `prompt ${target.name} on ${target.server}`,
      context: { via: 'mcp gateway', mcpServer: target.server, mcpPrompt: target.name },
    },
    extra,
  );
  if (!answer.approved) throw refused(answer.refusal);
  const name = approvedText(answer.args, 'name');
  const args = approvedPromptArguments(answer.args.arguments ?? {});
  return atUpstream(() =>
    upstream.client.getPrompt({ ...params, name, arguments: args }, { signal: extra.signal }),
  );
}
