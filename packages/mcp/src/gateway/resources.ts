import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { collidingUri, splitCollidingUri } from './names.js';
import type { Upstream, UpstreamPool } from './upstreams.js';

/** A URI template longer than this is not matched against (templates come from upstreams). */
const MAX_TEMPLATE_LENGTH = 1000;

/**
 * Resources keep their URIs, and a read goes to the upstream that listed the URI. Only a URI that
 * two upstreams both list is renamed, to `mcp-gateway://<server>/<encoded URI>`, one per upstream.
 */
export class ResourceRouter {
  readonly #pool: UpstreamPool;

  constructor(pool: UpstreamPool) {
    this.#pool = pool;
  }

  async list(signal: AbortSignal): Promise<Resource[]> {
    const listed = await Promise.all(
      this.#pool.offering('resources').map(async (upstream) => ({
        upstream,
        resources: await this.#pool.resources(upstream, signal),
      })),
    );
    const owners = new Map<string, number>();
    for (const { resources } of listed) {
      for (const uri of new Set(resources.map((resource) => resource.uri)))
        owners.set(uri, (owners.get(uri) ?? 0) + 1);
    }
    return listed.flatMap(({ upstream, resources }) =>
      resources.map((resource) =>
        (owners.get(resource.uri) ?? 0) > 1
          ? { ...resource, uri: collidingUri(upstream.name, resource.uri) }
          : resource,
      ),
    );
  }

  async templates(signal: AbortSignal): Promise<ResourceTemplate[]> {
    const listed = await Promise.all(
      this.#pool.offering('resources').map((upstream) => this.#pool.resourceTemplates(upstream, signal)),
    );
    return listed.flat();
  }

  /** The upstream that answers for `uri`: the one that lists it, else the first whose template matches. */
  async #owner(uri: string, signal: AbortSignal): Promise<Upstream | null> {
    const candidates = this.#pool.offering('resources');
    if (candidates.length === 1) return candidates[0] ?? null;
    for (const upstream of candidates) {
      const resources = await this.#pool.resources(upstream, signal);
      if (resources.some((resource) => resource.uri === uri)) return upstream;
    }
    for (const upstream of candidates) {
      const templates = await this.#pool.resourceTemplates(upstream, signal);
      const matches = templates.some(
        (template) =>
          template.uriTemplate.length <= MAX_TEMPLATE_LENGTH &&
          new UriTemplate(template.uriTemplate).match(uri) !== null,
      );
      if (matches) return upstream;
    }
    return null;
  }

  /** The upstream that answers for the client's `uri`, and the URI it knows the resource by. */
  async route(uri: string, signal: AbortSignal): Promise<{ upstream: Upstream; upstreamUri: string }> {
    const colliding = splitCollidingUri(uri);
    const upstream = colliding ? (this.#pool.get(colliding.server) ?? null) : await this.#owner(uri, signal);
    if (upstream === null) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no upstream server offers the resource ${JSON.stringify(uri)}`,
      );
    }
    return { upstream, upstreamUri: colliding?.uri ?? uri };
  }

  /** The upstream that lists the resource template `uriTemplate`, or null. */
  async templateOwner(uriTemplate: string, signal: AbortSignal): Promise<Upstream | null> {
    for (const upstream of this.#pool.offering('resources')) {
      const templates = await this.#pool.resourceTemplates(upstream, signal);
      if (templates.some((template) => template.uriTemplate === uriTemplate)) return upstream;
    }
    return null;
  }

  /** Reads `upstreamUri` from `upstream`; the contents name `uri`, the URI the client asked for. */
  async readAt(
    upstream: Upstream,
    upstreamUri: string,
    uri: string,
    signal: AbortSignal,
  ): Promise<ReadResourceResult> {
    const result = await upstream.client.readResource({ uri: upstreamUri }, { signal });
    if (upstreamUri === uri) return result;
    return {
      ...result,
      contents: result.contents.map((content) =>
        content.uri === upstreamUri ? { ...content, uri } : content,
      ),
    };
  }
}
