import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Builds the notes server; `record` receives the arguments of every write_note call. */
export function createNotesServer(record: (args: Record<string, unknown>) => void): McpServer;

/** Serves the notes server over Streamable HTTP on 127.0.0.1. */
export function serveNotesHttp(
  record: (args: Record<string, unknown>) => void,
): Promise<{ url: string; close(): Promise<void> }>;
