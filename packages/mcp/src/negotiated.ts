import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type InitializeRequest,
  InitializeRequestSchema,
  type InitializeResult,
} from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own initialize handling, which it does not expose with the version it agreed. */
interface Initializing {
  _oninitialize(request: InitializeRequest): Promise<InitializeResult>;
}

/**
 * Records the protocol version agreed at initialize (the SDK answers it but keeps no copy); the
 * returned function reads it, null before initialize.
 */
export function trackNegotiatedVersion(server: McpServer): () => string | null {
  let version: string | null = null;
  const lowLevel = server.server as unknown as Initializing;
  server.server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await lowLevel._oninitialize(request);
    version = result.protocolVersion;
    return result;
  });
  return () => version;
}
