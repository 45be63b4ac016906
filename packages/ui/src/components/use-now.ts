import { useSyncExternalStore } from 'react';

/** One timer for every ticking clock on the page, so a long list costs a single interval. */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Date.now();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const each of listeners) each();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const snapshot = () => now;

/** The current time in epoch ms, updated once a second while any component uses it. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
