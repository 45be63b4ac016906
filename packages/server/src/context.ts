import type { FastifyBaseLogger } from 'fastify';
import type { Clock, IdGenerator } from 'gatehouse-hitl-core';
import type { Store } from 'gatehouse-hitl-store';
import type { ServerConfig } from './config.js';
import type { EventBus } from './events/bus.js';
import type { CommittedGates } from './events/committed-gates.js';
import type { McpEndpoints } from './mcp-endpoints.js';
import type { NotificationChannelDefinition } from './services/notifications/channel.js';
import type { Telemetry } from './telemetry/telemetry.js';
import type { OutboxSignal } from './webhooks/outbox.js';
import type { WriteHealth } from './write-health.js';

/** What the server is built from; tests pass their own clock, store and bus. */
export interface AppDeps {
  store: Store;
  bus: EventBus;
  clock: Clock;
  config: ServerConfig;
  ids?: IdGenerator;
  /** Serve the web app's built files from this folder at `/`. */
  uiDir?: string | null;
  /** Log lines dropped by the log destination, for /metrics. */
  logDropped?: () => number;
  /** Enables `POST /v1/host/login-link` for callers on this host that send it. @default null */
  hostSecret?: string | null;
  /** Mounts these at `/mcp` and `/mcp/gateway`; without them the server has no MCP endpoints. @default null */
  mcp?: McpEndpoints | null;
  /** The channels notices go out on. @default every channel under services/notifications/channels/ */
  notificationChannels?: readonly NotificationChannelDefinition[];
}

/** The same, with defaults filled in, as handed to services and routes. */
export interface AppContext {
  store: Store;
  bus: EventBus;
  clock: Clock;
  config: ServerConfig;
  ids: IdGenerator;
  log: FastifyBaseLogger;
  /** Whether writes commit now, for /readyz. */
  writeHealth: WriteHealth;
  /** Log lines dropped so far because the log destination failed. */
  logDropped: () => number;
  /** The secret `POST /v1/host/login-link` takes, or null when that route is off. */
  hostSecret: string | null;
  /** The MCP endpoints handed in, or null. */
  mcp: McpEndpoints | null;
  /** The channels notices go out on, each delivering only when the config turns it on. */
  notificationChannels: readonly NotificationChannelDefinition[];
  /** Wakes this node's webhook delivery worker after a commit queued events. */
  outbox: OutboxSignal;
  /** Wakes this node's notification worker after a commit queued notices. */
  notices: OutboxSignal;
  /** The tracer and meter (docs/tracing.md); null while tracing is off, so no span is ever started. */
  telemetry: Telemetry | null;
  /** The gates this node's commits wrote, by the events they published (no read back on a wake-up). */
  committedGates: CommittedGates;
}
