import type { StreamEvent } from '@gatehouse/store';

export type StreamListener = (event: StreamEvent) => void;

/** Wakes waiting agents and live inboxes after a commit; events themselves live in the store. */
export interface EventBus {
  publish(event: StreamEvent): void;
  /** Returns an unsubscribe function. */
  subscribe(listener: StreamListener): () => void;
  close(): Promise<void>;
}

/** The single-node bus: listeners in this process. */
export function createInProcessBus(): EventBus {
  const listeners = new Set<StreamListener>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
