import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  McpError,
  type Prompt,
  PromptListChangedNotificationSchema,
  type Resource,
  ResourceListChangedNotificationSchema,
  type ResourceTemplate,
  ResourceUpdatedNotificationSchema,
  type ServerCapabilities,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { oneSendAtATime } from '../one-send-at-a-time.js';
import type { UpstreamConfig } from './config.js';
import { fetchWithOwnSignal } from './own-signal-fetch.js';

/**
 * An upstream's JSON-RPC error, passed on as it came. The SDK puts "MCP error <code>: " before the
 * message of an McpError and sends that whole message, so an McpError passed on would reach the
 * client with the prefix once per hop: a plain error with the code goes out with the bare message.
 */
function passedOn(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const message = error.message.replace(/^(MCP error -?\d+: )+/, '');
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}

/** Runs a request at an upstream, passing its errors on unchanged. */
export async function atUpstream<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw passedOn(error);
  }
}

/** Which list an upstream said has changed. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/** One connected upstream MCP server. */
export interface Upstream {
  name: string;
  client: Client;
  capabilities: ServerCapabilities;
}

/** The key of a resource's subscribers: the upstream's name cannot hold a newline. */
const updateKey = (upstream: Upstream, uri: string) => `${upstream.name}\n${uri}`;

/** A listing is read page by page; this many pages at most, so a looping cursor cannot hang us. */
const MAX_PAGES = 100;

function transportFor(config: UpstreamConfig): Transport {
  if (config.kind === 'http') {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
      fetch: fetchWithOwnSignal(),
    });
  }
  // The default environment (PATH, HOME, …) and the entry's own: the gateway's token is not passed on.
  return oneSendAtATime(
    new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd === null ? {} : { cwd: config.cwd }),
      stderr: 'inherit',
    }),
  );
}

/** Reads every page of a cursor-paginated list. */
async function allPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>,
) {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    items.push(...result.items);
    cursor = result.next;
    if (cursor === undefined) break;
  }
  return items;
}

/**
 * The upstream servers the gateway fronts, connected with the MCP SDK's client. Tool lists are
 * cached until the upstream says they changed; every change is passed on to the listeners.
 */
export class UpstreamPool {
  readonly #upstreams: Map<string, Upstream>;
  readonly #tools = new Map<string, Tool[]>();
  readonly #listeners = new Set<(kind: ListKind) => void>();
  /** Who listens for changes of a resource they subscribed to, by upstream and upstream URI. */
  readonly #updates = new Map<string, Set<() => void>>();

  private constructor(upstreams: Upstream[]) {
    this.#upstreams = new Map(upstreams.map((upstream) => [upstream.name, upstream]));
    for (const upstream of upstreams) this.#watch(upstream);
  }

  /** Connects to every upstream; fails (closing those already connected) when one cannot be reached. */
  static async connect(configs: UpstreamConfig[], version: string): Promise<UpstreamPool> {
    const connected: Upstream[] = [];
    try {
      for (const config of configs) {
        const client = new Client({ name: 'gatehouse-gateway', version }, { capabilities: {} });
        try {
          await client.connect(transportFor(config));
        } catch (error) {
          throw new Error(`upstream "${config.name}" could not be reached: ${(error as Error).message}`, {
            cause: error,
          });
        }
        connected.push({ name: config.name, client, capabilities: client.getServerCapabilities() ?? {} });
      }
    } catch (error) {
      await Promise.allSettled(connected.map((upstream) => upstream.client.close()));
      throw error;
    }
    return new UpstreamPool(connected);
  }

  #watch(upstream: Upstream): void {
    const changed = (kind: ListKind) => {
      if (kind === 'tools') this.#tools.delete(upstream.name);
      for (const listener of this.#listeners) listener(kind);
    };
    upstream.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed('tools'));
    upstream.client.setNotificationHandler(ResourceListChangedNotificationSchema, async () =>
      changed('resources'),
    );
    upstream.client.setNotificationHandler(PromptListChangedNotificationSchema, async () =>
      changed('prompts'),
    );
    upstream.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      for (const listener of this.#updates.get(updateKey(upstream, notification.params.uri)) ?? [])
        listener();
    });
  }

  /**
   * Calls `listener` whenever `upstream` says the resource at `uri` changed. The upstream is asked
   * for the subscription once, however many clients subscribe; the returned function ends this one
   * (and the upstream's when it was the last).
   */
  async subscribe(
    upstream: Upstream,
    uri: string,
    listener: () => void,
    signal: AbortSignal,
  ): Promise<() => Promise<void>> {
    const key = updateKey(upstream, uri);
    let listeners = this.#updates.get(key);
    if (listeners === undefined) {
      listeners = new Set();
      this.#updates.set(key, listeners);
    }
    const first = listeners.size === 0;
    listeners.add(listener);
    if (first) {
      try {
        await upstream.client.subscribeResource({ uri }, { signal });
      } catch (error) {
        listeners.delete(listener);
        if (listeners.size === 0) this.#updates.delete(key);
        throw error;
      }
    }
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      listeners.delete(listener);
      if (listeners.size > 0 || this.#updates.get(key) !== listeners) return;
      this.#updates.delete(key);
      await upstream.client.unsubscribeResource({ uri }).catch(() => {});
    };
  }

  /** Calls `listener` whenever an upstream says one of its lists changed; returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every upstream, in configuration order. */
  all(): Upstream[] {
    return [...this.#upstreams.values()];
  }

  /** The upstreams that offer `kind`. */
  offering(kind: ListKind): Upstream[] {
    return this.all().filter((upstream) => upstream.capabilities[kind] !== undefined);
  }

  get(name: string): Upstream | undefined {
    return this.#upstreams.get(name);
  }

  /** Whether `upstream` offers a tool named `name`; a name not in the cached list re-reads the list once. */
  async hasTool(upstream: Upstream, name: string, signal: AbortSignal): Promise<boolean> {
    if ((await this.tools(upstream, signal)).some((tool) => tool.name === name)) return true;
    this.#tools.delete(upstream.name);
    return (await this.tools(upstream, signal)).some((tool) => tool.name === name);
  }

  /** An upstream's tools (cached until it reports a change). */
  async tools(upstream: Upstream, signal: AbortSignal): Promise<Tool[]> {
    const cached = this.#tools.get(upstream.name);
    if (cached) return cached;
    const tools = await allPages(async (cursor) => {
      const page = await upstream.client.listTools(cursor ? { cursor } : {}, { signal });
      return { items: page.tools, next: page.nextCursor };
    });
    this.#tools.set(upstream.name, tools);
    return tools;
  }

  async resources(upstream: Upstream, signal: AbortSignal): Promise<Resource[]> {
    return allPages(async (cursor) => {
      const page = await upstream.client.listResources(cursor ? { cursor } : {}, { signal });
      return { items: page.resources, next: page.nextCursor };
    });
  }

  async resourceTemplates(upstream: Upstream, signal: AbortSignal): Promise<ResourceTemplate[]> {
    return allPages(async (cursor) => {
      const page = await upstream.client.listResourceTemplates(cursor ? { cursor } : {}, { signal });
      return { items: page.resourceTemplates, next: page.nextCursor };
    });
  }

  async prompts(upstream: Upstream, signal: AbortSignal): Promise<Prompt[]> {
    return allPages(async (cursor) => {
      const page = await upstream.client.listPrompts(cursor ? { cursor } : {}, { signal });
      return { items: page.prompts, next: page.nextCursor };
    });
  }

  /** Disconnects every upstream (stdio upstreams are stopped). */
  async close(): Promise<void> {
    this.#listeners.clear();
    this.#updates.clear();
    await Promise.allSettled(this.all().map((upstream) => upstream.client.close()));
  }
}
