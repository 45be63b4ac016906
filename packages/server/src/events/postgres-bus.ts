import { createHash } from 'node:crypto';
import type { Store } from 'gatehouse-hitl-store';
import pg from 'pg';
import { type BusLog, createSubscribers, type EventBus } from './bus.js';
import { createEventSequencer } from './event-sequencer.js';
import { startPostgresListener } from './postgres-listener.js';

/** Where the bus reads events from and how it reaches Postgres. */
export interface PostgresBusOptions {
  connectionString: string;
  /** The store's schema (null: the search path's); nodes on one schema share one channel. */
  schema: string | null;
  store: Pick<Store, 'listStreamEvents' | 'latestStreamSeq'>;
  /** How often new events are read even without a notification. @default 2000 */
  pollIntervalMs?: number;
  /** The listener connection's name in pg_stat_activity. @default `gatehouse-listener <pid> <schema>` */
  applicationName?: string;
  /** Reconnect delays of the listener. @default { minMs: 100, maxMs: 5000 } */
  backoff?: { minMs: number; maxMs: number };
  log?: BusLog;
}

/** The Postgres bus, with what tests and operators need to find its connection. */
export interface PostgresBus extends EventBus {
  readonly channel: string;
  readonly applicationName: string;
  /** The listener's server process, or null while it is down. */
  listenerPid(): number | null;
}

const MAX_IDENTIFIER = 63;

/** One NOTIFY channel per schema, so several deployments can share a database. */
export function channelFor(schema: string | null): string {
  const channel = schema === null ? 'gatehouse_events' : `gatehouse_events_${schema}`;
  if (channel.length <= MAX_IDENTIFIER) return channel;
  return `gatehouse_events_${createHash('sha256')
    .update(schema ?? '')
    .digest('hex')
    .slice(0, 40)}`;
}

/** Sends `pg_notify(channel, seq)` for the newest committed seq; a burst of commits shares one NOTIFY. */
function createNotifier(options: { connectionString: string; channel: string; log?: BusLog | undefined }) {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: 1,
    application_name: 'gatehouse-notifier',
    keepAlive: true,
    // Kept open: a fresh connection per quiet spell would add its handshake to a wake-up.
    idleTimeoutMillis: 0,
  });
  pool.on('error', () => undefined);
  let newest = 0;
  let sent = 0;
  let sending: Promise<void> | null = null;

  async function flush(): Promise<void> {
    try {
      while (newest > sent) {
        const seq = newest;
        await pool.query('select pg_notify($1, $2)', [options.channel, String(seq)]);
        sent = seq;
      }
    } catch (error) {
      // Other nodes still find the event by their poll.
      sent = newest;
      options.log?.warn({ err: error }, 'could not notify other nodes of new events');
    } finally {
      sending = null;
    }
  }

  return {
    notify(seq: number): void {
      newest = Math.max(newest, seq);
      sending ??= flush();
    },
    async close(): Promise<void> {
      await sending;
      await pool.end().catch(() => undefined);
    },
  };
}

/**
 * The multi-node bus on Postgres LISTEN/NOTIFY. Notifications carry only a seq; the events are read
 * from the stream event table, so a dropped listener loses nothing: on reconnect it LISTENs first,
 * then reads everything after the last seq it delivered, and a poll backs the notifications up.
 */
export async function createPostgresBus(options: PostgresBusOptions): Promise<PostgresBus> {
  const channel = channelFor(options.schema);
  const applicationName =
    options.applicationName ?? `gatehouse-listener ${process.pid} ${options.schema ?? ''}`.trim();
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  const subscribers = createSubscribers(options.log);
  const local = createSubscribers(options.log);
  const sequencer = createEventSequencer({
    startSeq: await options.store.latestStreamSeq(),
    source: options.store,
    deliver: (event) => subscribers.deliver(event),
    onError: (error) =>
      options.log?.warn({ err: error }, 'could not read new events; retrying on the next poll'),
  });
  const notifier = createNotifier({ connectionString: options.connectionString, channel, log: options.log });
  const listener = await startPostgresListener({
    connectionString: options.connectionString,
    channel,
    applicationName,
    pingIntervalMs: pollIntervalMs,
    ...(options.backoff ? { minBackoffMs: options.backoff.minMs, maxBackoffMs: options.backoff.maxMs } : {}),
    log: options.log,
    onNotification(payload) {
      const seq = Number(payload);
      sequencer.hint(Number.isSafeInteger(seq) ? seq : undefined);
    },
    onConnected: () => sequencer.hint(),
  });
  const poll = setInterval(() => sequencer.hint(), pollIntervalMs);
  poll.unref();

  let closing: Promise<void> | null = null;
  return {
    channel,
    applicationName,
    listenerPid: () => listener.backendPid(),
    publish(event) {
      local.deliver(event);
      sequencer.offer(event);
      notifier.notify(event.seq);
    },
    subscribe(listener, subscribeOptions) {
      return subscribeOptions?.localOnly ? local.add(listener) : subscribers.add(listener);
    },
    isReady: () => listener.isConnected(),
    close() {
      closing ??= (async () => {
        clearInterval(poll);
        sequencer.stop();
        await listener.close();
        await sequencer.idle();
        await notifier.close();
        subscribers.clear();
        local.clear();
      })();
      return closing;
    },
  };
}
