import type { McpLogger } from './context.js';
import { parseGatewayConfig } from './gateway/config.js';
import { GATEWAY_VERSION } from './gateway/gateway.js';
import { createGatewayHttpHandler, type GatewayHttpHandler } from './gateway/http-handler.js';
import { UpstreamPool } from './gateway/upstreams.js';
import { createMcpHttpHandler, type McpHttpHandler } from './http.js';

/** What a Gatehouse server hands an MCP endpoint when it mounts it. */
export interface McpEndpointOptions {
  log: McpLogger;
}

/**
 * The MCP endpoints a Gatehouse server mounts at `/mcp` and `/mcp/gateway`: hand them to the
 * server as it is built, and it puts its origin and bearer-token checks in front of them.
 *
 * @example
 * const server = await startServer({ config, mcp: mcpEndpoints });
 */
export const mcpEndpoints = {
  /** `/mcp`: Gatehouse's tools; a client that declares URL-mode elicitation is sent to `gatePages`. */
  agent(options: McpEndpointOptions & { gatePages: string }): McpHttpHandler {
    return createMcpHttpHandler({ log: options.log, gatePages: options.gatePages });
  },
  /**
   * `/mcp/gateway`: the upstreams of the `mcpServers` file `config`, every tool call asked of the
   * policy with the caller's own token; upstreams connect on the first session. Throws
   * GatewayConfigError when the file is not valid.
   */
  gateway(
    options: McpEndpointOptions & { config: string; env: Record<string, string | undefined> },
  ): GatewayHttpHandler {
    const upstreams = parseGatewayConfig(options.config, options.env);
    return createGatewayHttpHandler({
      connect: () => UpstreamPool.connect(upstreams, GATEWAY_VERSION),
      version: GATEWAY_VERSION,
      verifyToken: false,
      log: options.log,
    });
  },
};
