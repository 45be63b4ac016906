import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { namespaced, splitName } from './names.js';
import { ResourceRouter } from './resources.js';
import { gatedToolCall, type ToolGateOptions } from './tool-call.js';
import type { ListKind, UpstreamPool } from './upstreams.js';

/** What the gateway tells clients about itself. */
export const GATEWAY_INSTRUCTIONS =
  'Tools, resources and prompts of other MCP servers, behind Gatehouse: tool names are <server>__<tool>. ' +
  'Every tool call is checked by the Gatehouse policy and may wait for a person to approve it. ' +
  'A call that is denied, steered or times out returns a tool error saying so: do not retry it another way.';

/** The capabilities the gateway offers: what at least one upstream offers, with list_changed. */
function capabilitiesOf(pool: UpstreamPool): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  if (pool.offering('tools').length > 0) capabilities.tools = { listChanged: true };
  if (pool.offering('resources').length > 0) capabilities.resources = { listChanged: true };
  if (pool.offering('prompts').length > 0) capabilities.prompts = { listChanged: true };
  return capabilities;
}

/** A closed connection has no one to tell about a change. */
async function announce(server: Server, kind: ListKind): Promise<void> {
  if (kind === 'tools') await server.sendToolListChanged();
  else if (kind === 'resources') await server.sendResourceListChanged();
  else await server.sendPromptListChanged();
}

/**
 * One gateway MCP server (one per client connection) over a shared pool of upstreams: lists are
 * the upstreams' own, names prefixed with the upstream's; tool calls go through the policy.
 */
export function createGatewayServer(pool: UpstreamPool, gate: ToolGateOptions, version: string): Server {
  const capabilities = capabilitiesOf(pool);
  const server = new Server(
    { name: 'gatehouse-gateway', title: 'Gatehouse MCP gateway', version },
    { capabilities, instructions: GATEWAY_INSTRUCTIONS },
  );
  const unsubscribe = pool.onListChanged((kind) => {
    announce(server, kind).catch(() => {});
  });
  server.onclose = () => unsubscribe();

  if (capabilities.tools) {
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const lists = await Promise.all(
        pool.offering('tools').map(async (upstream) =>
          (await pool.tools(upstream, extra.signal)).map((tool) => ({
            ...tool,
            name: namespaced(upstream.name, tool.name),
          })),
        ),
      );
      return { tools: lists.flat() };
    });
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      gatedToolCall(pool, gate, request.params, extra),
    );
  }

  if (capabilities.resources) {
    const resources = new ResourceRouter(pool);
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
      resources: await resources.list(extra.signal),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => ({
      resourceTemplates: await resources.templates(extra.signal),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      resources.read(request.params.uri, extra.signal),
    );
  }

  if (capabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
      const lists = await Promise.all(
        pool.offering('prompts').map(async (upstream) =>
          (await pool.prompts(upstream, extra.signal)).map((prompt) => ({
            ...prompt,
            name: namespaced(upstream.name, prompt.name),
          })),
        ),
      );
      return { prompts: lists.flat() };
    });
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const target = splitName(request.params.name);
      const upstream = target === null ? undefined : pool.get(target.server);
      if (target === null || upstream?.capabilities.prompts === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `unknown prompt "${request.params.name}"`);
      }
      return upstream.client.getPrompt({ ...request.params, name: target.name }, { signal: extra.signal });
    });
  }
  return server;
}
