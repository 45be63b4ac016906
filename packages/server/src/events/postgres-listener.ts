import pg from 'pg';
import type { BusLog } from './bus.js';

/** One dedicated connection that LISTENs on a channel, reconnecting with backoff when it drops. */
export interface PostgresListener {
  /** True from the moment LISTEN succeeded until the connection drops. */
  isConnected(): boolean;
  /** The server process behind the connection, or null while disconnected. */
  backendPid(): number | null;
  close(): Promise<void>;
}

export interface PostgresListenerOptions {
  connectionString: string;
  channel: string;
  /** Shown in pg_stat_activity, so operators (and tests) can find this connection. */
  applicationName: string;
  onNotification(payload: string): void;
  /** After every (re)connect, once LISTEN is in place: the time to catch up on what was missed. */
  onConnected(): void;
  /** How often the connection is checked with a query, which also finds a silently dead one. */
  pingIntervalMs: number;
  /** @default 100 */
  minBackoffMs?: number;
  /** @default 5000 */
  maxBackoffMs?: number;
  log?: BusLog | undefined;
}

/** `"name"` with inner quotes doubled: LISTEN takes an identifier, not a parameter. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Starts listening; resolves after the first attempt, connected or not (it keeps retrying). */
export async function startPostgresListener(options: PostgresListenerOptions): Promise<PostgresListener> {
  const minBackoff = options.minBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  let client: pg.Client | null = null;
  let connected = false;
  let pid: number | null = null;
  let failures = 0;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;

  function scheduleRetry(): void {
    if (closed || retryTimer !== null) return;
    const ceiling = Math.min(maxBackoff, minBackoff * 2 ** failures);
    failures += 1;
    // Jitter, so nodes that lost the database together do not come back in lockstep.
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void connect();
      },
      ceiling / 2 + Math.random() * (ceiling / 2),
    );
    retryTimer.unref();
  }

  function drop(which: pg.Client, error: unknown): void {
    if (which !== client) return;
    const wasConnected = connected;
    client = null;
    connected = false;
    pid = null;
    which.end().catch(() => undefined);
    if (closed) return;
    if (wasConnected) options.log?.warn({ err: error }, 'event listener connection lost; reconnecting');
    else if (failures === 0) options.log?.warn({ err: error }, 'event listener cannot connect; retrying');
    scheduleRetry();
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    client = next;
    next.on('error', (error) => drop(next, error));
    next.on('end', () => drop(next, new Error('connection ended')));
    next.on('notification', (message) => {
      if (next === client && message.channel === options.channel)
        options.onNotification(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen ${quoteIdentifier(options.channel)}`);
      const { rows } = await next.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (next !== client) return;
      pid = rows[0]?.pid ?? null;
    } catch (error) {
      drop(next, error);
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    if (failures > 0) options.log?.info({ attempts: failures }, 'event listener reconnected');
    failures = 0;
    connected = true;
    options.onConnected();
  }

  const pingTimeoutMs = Math.max(5000, options.pingIntervalMs);
  let pinging: pg.Client | null = null;
  const ping = setInterval(() => {
    const current = client;
    if (!connected || current === null || pinging === current) return;
    pinging = current;
    // A connection the network silently lost answers nothing: give it up after the timeout.
    const timer = setTimeout(
      () => drop(current, new Error('the listener did not answer a ping')),
      pingTimeoutMs,
    );
    current
      .query('select 1')
      .catch((error: unknown) => drop(current, error))
      .finally(() => {
        clearTimeout(timer);
        if (pinging === current) pinging = null;
      });
  }, options.pingIntervalMs);
  ping.unref();

  await connect();
  return {
    isConnected: () => connected,
    backendPid: () => pid,
    async close() {
      closed = true;
      clearInterval(ping);
      if (retryTimer !== null) clearTimeout(retryTimer);
      const current = client;
      client = null;
      connected = false;
      await current?.end().catch(() => undefined);
    },
  };
}
