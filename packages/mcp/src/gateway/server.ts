import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CompleteRequest,
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { gatedPromptGet, gatedResourceRead } from './gated-reads.js';
import { namespaced, splitName } from './names.js';
import { ResourceRouter } from './resources.js';
import { gatedToolCall, type ToolGateOptions } from './tool-call.js';
import { atUpstream, type ListKind, type Upstream, type UpstreamPool } from './upstreams.js';

/** What the gateway tells clients about itself. */
export const GATEWAY_INSTRUCTIONS =
  'Tools, resources and prompts of other MCP servers, behind Gatehouse: tool names are <server>__<tool>. ' +
  'Every tool call, resource read and prompt is checked by the Gatehouse policy and may wait for a person to approve it. ' +
  'A call that is denied, steered or times out returns a tool error saying so (a read or a prompt: an error): do not retry it another way.';

/** The capabilities the gateway offers: what at least one upstream offers, with list_changed. */
function capabilitiesOf(pool: UpstreamPool): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  const all = pool.all();
  if (pool.offering('tools').length > 0) capabilities.tools = { listChanged: true };
  if (pool.offering('resources').length > 0) {
    const subscribe = all.some((upstream) => upstream.capabilities.resources?.subscribe === true);
    capabilities.resources = { listChanged: true, ...(subscribe ? { subscribe: true } : {}) };
  }
  if (pool.offering('prompts').length > 0) capabilities.prompts = { listChanged: true };
  if (all.some((upstream) => upstream.capabilities.completions !== undefined)) capabilities.completions = {};
  return capabilities;
}

/** Resource subscriptions one client may hold at once. */
const MAX_SUBSCRIPTIONS = 1_000;

const NO_COMPLETIONS: CompleteResult = { completion: { values: [], hasMore: false } };

/** Completes a prompt's or a resource template's argument with the upstream that owns it. */
async function complete(
  pool: UpstreamPool,
  resources: ResourceRouter | null,
  params: CompleteRequest['params'],
  signal: AbortSignal,
): Promise<CompleteResult> {
  const { ref } = params;
  let upstream: Upstream | null | undefined;
  let upstreamRef = ref;
  if (ref.type === 'ref/prompt') {
    const target = splitName(ref.name);
    upstream = target === null ? undefined : pool.get(target.server);
    if (target === null || upstream?.capabilities.prompts === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt "${ref.name}"`);
    }
    upstreamRef = { ...ref, name: target.name };
  } else {
    upstream = resources === null ? null : await resources.templateOwner(ref.uri, signal);
    if (upstream === null) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no upstream server offers the resource template "${ref.uri}"`,
      );
    }
  }
  // An upstream that completes nothing has no suggestions, which is not an error.
  if (upstream.capabilities.completions === undefined) return NO_COMPLETIONS;
  const owner = upstream;
  return atUpstream(() => owner.client.complete({ ...params, ref: upstreamRef }, { signal }));
}

/** A closed connection has no one to tell about a change. */
async function announce(server: Server, kind: ListKind): Promise<void> {
  if (kind === 'tools') await server.sendToolListChanged();
  else if (kind === 'resources') await server.sendResourceListChanged();
  else await server.sendPromptListChanged();
}

/** The gateway's MCP server: closing it waits until the calls it cut short have withdrawn their gates. */
class GatewayServer extends Server {
  readonly #calls = new Set<Promise<unknown>>();

  /** Runs a tool call that `close()` waits for. */
  track<T>(call: Promise<T>): Promise<T> {
    this.#calls.add(call);
    const forget = () => void this.#calls.delete(call);
    call.then(forget, forget);
    return call;
  }

  override async close(): Promise<void> {
    // Closing aborts every call still waiting for a person; each then withdraws its gate.
    await super.close();
    await Promise.allSettled([...this.#calls]);
  }
}

/**
 * One gateway MCP server (one per client connection) over a shared pool of upstreams: lists are
 * the upstreams' own, names prefixed with the upstream's; tool calls, resource reads and prompts go
 * through the policy.
 */
export function createGatewayServer(pool: UpstreamPool, gate: ToolGateOptions, version: string): Server {
  const capabilities = capabilitiesOf(pool);
  const server = new GatewayServer(
    { name: 'gatehouse-gateway', title: 'Gatehouse MCP gateway', version },
    { capabilities, instructions: GATEWAY_INSTRUCTIONS },
  );
  const unsubscribe = pool.onListChanged((kind) => {
    announce(server, kind).catch(() => {});
  });
  /** This client's resource subscriptions, by the URI it subscribed to. */
  const subscriptions = new Map<string, () => Promise<void>>();
  server.onclose = () => {
    unsubscribe();
    for (const end of subscriptions.values()) void end();
    subscriptions.clear();
  };

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
      server.track(gatedToolCall(pool, gate, request.params, extra)),
    );
  }

  const resources = new ResourceRouter(pool);
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({
      resources: await resources.list(extra.signal),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => ({
      resourceTemplates: await resources.templates(extra.signal),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      server.track(gatedResourceRead(resources, gate, request.params.uri, extra)),
    );
    if (capabilities.resources.subscribe) {
      server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
        const { uri } = request.params;
        if (subscriptions.has(uri)) return {};
        if (subscriptions.size >= MAX_SUBSCRIPTIONS) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `at most ${MAX_SUBSCRIPTIONS} resource subscriptions at once; unsubscribe from one first`,
          );
        }
        const { upstream, upstreamUri } = await resources.route(uri, extra.signal);
        if (upstream.capabilities.resources?.subscribe !== true) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `the server offering ${JSON.stringify(uri)} does not take subscriptions`,
          );
        }
        const changed = () => void server.sendResourceUpdated({ uri }).catch(() => {});
        const end = await pool.subscribe(upstream, upstreamUri, changed, extra.signal);
        // Two subscribe requests for one URI raced: the client hears of each change once.
        if (subscriptions.has(uri)) await end();
        else subscriptions.set(uri, end);
        return {};
      });
      server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
        const end = subscriptions.get(request.params.uri);
        subscriptions.delete(request.params.uri);
        await end?.();
        return {};
      });
    }
  }

  if (capabilities.completions) {
    const router = capabilities.resources ? resources : null;
    server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
      complete(pool, router, request.params, extra.signal),
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
    server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      server.track(gatedPromptGet(pool, gate, request.params, extra)),
    );
  }
  return server;
}
