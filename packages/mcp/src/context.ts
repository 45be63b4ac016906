import type { GatehouseApi } from './api.js';
import type { Extra } from './decision.js';

/** Where the MCP server reports what it cannot tell the client (pino-compatible, object first). */
export interface McpLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** A logger that drops everything. */
export const SILENT_LOGGER: McpLogger = { warn() {}, error() {} };

/** Offers a pending gate to the person at the MCP client, where that is allowed. */
export interface Elicitor {
  /** Starts asking in the background; stops asking when `signal` aborts. Never throws. */
  offer(gateId: string, extra: Extra, signal: AbortSignal): void;
  /** The gate ended: tells the client a URL-mode elicitation it opened for it is complete. Never throws. */
  ended(gateId: string, extra: Extra): void;
}

/** What one MCP session remembers between calls. */
export interface SessionState {
  /** Per run: the newest intervention time handed out and the ids handed out at that time. */
  seen: Map<string, { at: number; ids: Set<string> }>;
}

/** What every tool and resource handler works with. */
export interface ToolContext {
  api: GatehouseApi;
  /** The run this server was started for; tools fall back to it when no runId is given. */
  runId: string | null;
  elicitor: Elicitor | null;
  state: SessionState;
  log: McpLogger;
}
