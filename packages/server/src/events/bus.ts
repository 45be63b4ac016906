import type { StreamEvent } from 'gatehouse-hitl-store';

export type StreamListener = (event: StreamEvent) => void;

export interface SubscribeOptions {
  /**
   * Only events this node committed, at once and in its commit order: for per-node counters, which a
   * cluster adds up. @default false (every node's events)
   */
  localOnly?: boolean;
}

/**
 * Wakes waiting agents and live inboxes after a commit; events themselves live in the store.
 * Every subscriber gets each event once, in seq order.
 */
export interface EventBus {
  /** Announces an event that has just committed. */
  publish(event: StreamEvent): void;
  /** Returns an unsubscribe function. */
  subscribe(listener: StreamListener, options?: SubscribeOptions): () => void;
  /** False while events from other nodes cannot arrive (the listener connection is down). */
  isReady(): boolean;
  close(): Promise<void>;
}

/** Where a bus reports trouble; pino's logger fits. */
export interface BusLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Subscribers of one bus; a listener that throws is logged and does not stop the others. */
export interface Subscribers {
  add(listener: StreamListener): () => void;
  deliver(event: StreamEvent): void;
  clear(): void;
}

export function createSubscribers(log: BusLog | undefined): Subscribers {
  const listeners = new Set<StreamListener>();
  return {
    add(listener) {
      // A wrapper per subscription, so subscribing the same function twice gives two deliveries.
      const entry: StreamListener = (event) => listener(event);
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    deliver(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          log?.warn({ err: error, seq: event.seq, type: event.type }, 'an event listener failed');
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}

/** The single-node bus: listeners in this process, which also commits every event. */
export function createInProcessBus(options: { log?: BusLog } = {}): EventBus {
  const subscribers = createSubscribers(options.log);
  let lastSeq = 0;
  return {
    publish(event) {
      // Commits publish in seq order; a repeat is dropped.
      if (event.seq <= lastSeq) return;
      lastSeq = event.seq;
      subscribers.deliver(event);
    },
    // Every event is this node's own, so local-only subscribers need nothing else.
    subscribe: (listener) => subscribers.add(listener),
    isReady: () => true,
    async close() {
      subscribers.clear();
    },
  };
}
