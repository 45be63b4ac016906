import { AsyncLocalStorage } from 'node:async_hooks';
import { GatehouseError } from 'gatehouse-hitl-core';
import type { TxContext } from './db/schema.js';
import type { UnitOptions } from './types.js';

/** One caller's work, waiting for a batch. */
export interface QueuedUnit {
  work: (ctx: TxContext) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** `work` touches nothing outside the transaction, so it may run again should its batch roll back. */
  replayable: boolean;
}

/** How batches are run and how large they may grow. */
export interface GroupCommitOptions {
  /** Runs one batch in one database transaction and settles every unit of it. */
  execute(units: QueuedUnit[]): Promise<void>;
  /** @default 256 */
  maxBatch?: number;
}

/** Queues units of work and runs them in batches, one batch at a time. */
export interface GroupCommit {
  enqueue<T>(work: (ctx: TxContext) => Promise<T>, options?: UnitOptions): Promise<T>;
  /** Refuses new work, then waits until everything queued has settled. */
  close(): Promise<void>;
}

/**
 * Whether AsyncLocalStorage runs on async context frames here: the default from Node.js 24, behind a
 * flag on 22. Without them it turns on promise hooks for the whole process, which cost a busy
 * server about a tenth of its CPU on every promise it makes.
 */
export function asyncContextFramesOn(
  nodeVersion: string = process.versions.node,
  flags: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): boolean {
  if (flags.includes('--no-async-context-frame')) return false;
  if (flags.includes('--experimental-async-context-frame')) return true;
  return Number(nodeVersion.split('.')[0]) >= 24;
}

/**
 * Whether a `transaction()` started inside a unit is refused (rather than waiting for its own batch
 * forever). The guard runs only where it costs nothing; the whole test suite runs on such a line, so
 * a nested transaction in the code is still caught.
 */
export const refusesNestedTransactions = asyncContextFramesOn();

const insideUnit = refusesNestedTransactions ? new AsyncLocalStorage<true>() : null;

/** Runs `fn` marked as a unit of work, so a nested `transaction()` is caught instead of deadlocking. */
export function runAsUnit<T>(fn: () => Promise<T>): Promise<T> {
  return insideUnit === null ? fn() : insideUnit.run(true, fn);
}

class GroupCommitQueue implements GroupCommit {
  private readonly queue: QueuedUnit[] = [];
  private running = false;
  private scheduled = false;
  private closed = false;
  private idle: (() => void) | null = null;

  constructor(
    private readonly execute: (units: QueuedUnit[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  enqueue<T>(work: (ctx: TxContext) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new GatehouseError('SERVICE_UNAVAILABLE', 'the store is closed'));
    if (insideUnit?.getStore()) {
      return Promise.reject(
        new GatehouseError('INTERNAL', 'store.transaction() inside a transaction: use the tx you were given'),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const replayable = options.replayable === true;
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject, replayable });
      this.schedule();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (!this.running && this.queue.length === 0) return;
    await new Promise<void>((resolve) => {
      this.idle = resolve;
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate runs after pending I/O callbacks, so concurrent requests parsed in this turn
    // of the event loop join the batch and share one commit.
    setImmediate(() => this.runNext());
  }

  private runNext(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.running = true;
    this.execute(batch)
      .catch((error: unknown) => {
        for (const unit of batch) unit.reject(error);
      })
      .finally(() => {
        this.running = false;
        if (this.queue.length > 0) this.schedule();
        else this.idle?.();
      });
  }
}

/** Creates the batcher behind `Store.transaction()`. */
export function createGroupCommit(options: GroupCommitOptions): GroupCommit {
  return new GroupCommitQueue(options.execute, options.maxBatch ?? 256);
}
