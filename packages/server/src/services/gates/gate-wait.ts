import { setMaxListeners } from 'node:events';
import { type Gate, GatehouseError, isTerminal } from 'gatehouse-hitl-core';
import type { StreamEvent } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { EventBus } from '../../events/bus.js';
import type { Principal } from '../../http/principal.js';
import { assertCanRead, loadGate, withoutVersion } from './gate-common.js';

/** The longest one long-poll may wait. */
export const MAX_WAIT_MS = 60_000;

/** Wakes whoever waits on a gate when an event about it is published; one bus listener for all of them. */
export interface GateWaiters {
  /** Calls `wake` with the next `gate.*` event of the gate; returns the unsubscribe function. */
  on(gateId: string, wake: (event: StreamEvent) => void): () => void;
  /** How many waits are registered right now. */
  count(): number;
  /** Aborted when the service closes, so no long-poll outlives the app. */
  readonly closing: AbortSignal;
  close(): void;
}

/** Creates the registry and subscribes it to the bus. */
export function createGateWaiters(bus: EventBus): GateWaiters {
  const waiting = new Map<string, Set<(event: StreamEvent) => void>>();
  const closing = new AbortController();
  // Every open long-poll listens for the close: thousands at once is normal, not a leak.
  setMaxListeners(0, closing.signal);
  const unsubscribe = bus.subscribe((event) => {
    if (event.gateId === null || !event.type.startsWith('gate.')) return;
    const listeners = waiting.get(event.gateId);
    if (listeners === undefined) return;
    for (const wake of [...listeners]) wake(event);
  });
  return {
    on(gateId, wake) {
      let listeners = waiting.get(gateId);
      if (listeners === undefined) {
        listeners = new Set();
        waiting.set(gateId, listeners);
      }
      listeners.add(wake);
      return () => {
        listeners.delete(wake);
        if (listeners.size === 0 && waiting.get(gateId) === listeners) waiting.delete(gateId);
      };
    },
    count() {
      let total = 0;
      for (const listeners of waiting.values()) total += listeners.size;
      return total;
    },
    closing: closing.signal,
    close() {
      unsubscribe();
      closing.abort();
      waiting.clear();
    },
  };
}

function sleepUntilWoken(
  waiters: GateWaiters,
  gateId: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): { woken: Promise<StreamEvent | null>; stop(): void } {
  let stop = () => {};
  // The event that woke the wait; null at the timeout or when it was aborted.
  const woken = new Promise<StreamEvent | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    const off = waiters.on(gateId, resolve);
    const signals = [signal, waiters.closing].filter((s): s is AbortSignal => s !== undefined);
    const onAbort = () => resolve(null);
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    stop = () => {
      clearTimeout(timer);
      off();
      for (const s of signals) s.removeEventListener('abort', onAbort);
    };
    if (signals.some((s) => s.aborted)) resolve(null);
  });
  return { woken, stop };
}

/**
 * Long-polls a gate: subscribes first, then reads it; answers at once when it has ended, else on
 * the first event about it, else at the timeout with the gate still pending.
 */
export async function waitForGate(
  deps: { ctx: AppContext; waiters: GateWaiters },
  options: { principal: Principal; gateId: string; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Gate> {
  const { principal, gateId } = options;
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 0 || options.timeoutMs > MAX_WAIT_MS) {
    throw new GatehouseError('VALIDATION_FAILED', `timeoutMs must be between 0 and ${MAX_WAIT_MS}`, {
      field: 'timeoutMs',
    });
  }
  const read = async () => withoutVersion(await deps.ctx.store.read((tx) => loadGate(tx, gateId)));
  // Subscribing before the first read means no decision can slip in between.
  const sleep = sleepUntilWoken(deps.waiters, gateId, options.timeoutMs, options.signal);
  try {
    const gate = await read();
    assertCanRead(principal, gate);
    if (isTerminal(gate.status) || options.timeoutMs === 0) return gate;
    const event = await sleep.woken;
    // A decision committed on this node hands over the gate it wrote: no read back.
    return (event === null ? undefined : deps.ctx.committedGates.of(event)) ?? (await read());
  } finally {
    sleep.stop();
  }
}
