import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

/** One request to an MCP endpoint, after the server checked its origin and bearer token. */
export interface McpEndpointCall {
  /** The caller's bearer token; the endpoint calls the API with it. */
  token: string;
  /** This server's own API, at the address the caller reached it on. */
  apiUrl: string;
  /** The parsed JSON body of a POST. */
  body: unknown;
}

/** Answers the requests of one MCP endpoint over Streamable HTTP. */
export interface McpEndpointHandler {
  handle(request: IncomingMessage, response: ServerResponse, call: McpEndpointCall): Promise<void>;
  /** Ends every session. */
  close(): Promise<void>;
}

/**
 * The MCP endpoints the server mounts at `/mcp` and `/mcp/gateway`, handed in by whoever builds the
 * app (`gatehouse serve` passes `gatehouse-hitl-mcp`'s), so the server does not depend on MCP.
 */
export interface McpEndpoints {
  /** `/mcp`: Gatehouse's own tools; `gatePages` is the web app's base URL for URL-mode elicitation. */
  agent(options: { log: FastifyBaseLogger; gatePages: string }): McpEndpointHandler;
  /** `/mcp/gateway`: the upstreams of an `mcpServers` file; throws when the file is not valid. */
  gateway(options: {
    config: string;
    env: Record<string, string | undefined>;
    log: FastifyBaseLogger;
  }): McpEndpointHandler;
}
