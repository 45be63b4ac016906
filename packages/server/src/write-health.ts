import { isGatehouseError } from 'gatehouse-hitl-core';
import type { Store } from 'gatehouse-hitl-store';

const SQLITE_STORAGE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL|NOLFS)/;
/** Postgres: read-only transaction, insufficient resources (disk full, …), operator intervention, connection. */
const POSTGRES_STORAGE_CODES = /^(25006|53\d{3}|57P0\d|08\d{3})$/;

/** An error that says the database cannot take writes now, as opposed to a bug or a refused change. */
export function isStorageFailure(error: unknown): boolean {
  if (isGatehouseError(error)) return error.code === 'SERVICE_UNAVAILABLE';
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SQLITE_STORAGE_CODES.test(code) || POSTGRES_STORAGE_CODES.test(code)))
    return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isStorageFailure(cause);
}

/** Whether this node can write, for /readyz. */
export interface WriteHealth {
  /**
   * True while the last write committed. After a failed one, a probe write (at most one at a
   * time, its answer kept for a second) decides, so a node with no traffic still recovers.
   */
  isHealthy(): Promise<boolean>;
}

export interface TrackWritesOptions {
  /** How long /readyz waits for a probe write. @default 2000 */
  probeTimeoutMs?: number;
}

/** Wraps `store` so every transaction's outcome is recorded: a storage failure marks writes unhealthy. */
export function trackWrites(
  store: Store,
  options: TrackWritesOptions = {},
): { store: Store; health: WriteHealth } {
  let failing = false;
  let probe: { at: number; result: Promise<boolean> } | null = null;
  const transaction: Store['transaction'] = async (work, unit) => {
    try {
      const result = await store.transaction(work, unit);
      failing = false;
      return result;
    } catch (error) {
      if (isStorageFailure(error)) failing = true;
      throw error;
    }
  };
  const probeWrite = async (): Promise<boolean> => {
    const write = transaction((tx) => tx.deleteOutboxEvents(['readiness-probe'])).then(
      () => true,
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), options.probeTimeoutMs ?? 2000);
    });
    return Promise.race([write, timeout]).finally(() => clearTimeout(timer));
  };
  const tracked = new Proxy(store, {
    get(target, property) {
      if (property === 'transaction') return transaction;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const health: WriteHealth = {
    async isHealthy() {
      if (!failing) return true;
      const now = performance.now();
      if (probe === null || now - probe.at >= 1000) probe = { at: now, result: probeWrite() };
      return (await probe.result) || !failing;
    },
  };
  return { store: tracked, health };
}
