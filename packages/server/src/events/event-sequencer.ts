import type { Store, StreamEvent } from 'gatehouse-hitl-store';

/** Where missed events are read from: the stream event table. */
export type EventSource = Pick<Store, 'listStreamEvents'>;

/**
 * Hands events to `deliver` exactly once and in seq order, whether they come from this node's
 * commits (at once when nothing is missing before them) or from the store (after a hint that
 * something newer exists, from a notification or a poll).
 */
export interface EventSequencer {
  /** An event this node has just committed. */
  offer(event: StreamEvent): void;
  /** Something newer than `seq` (or, without one, possibly something) is in the store: read it. */
  hint(seq?: number): void;
  /** The seq of the last event delivered. */
  readonly lastSeq: number;
  /** Resolves once no read from the store is running. */
  idle(): Promise<void>;
  /** Delivers nothing more. */
  stop(): void;
}

export interface EventSequencerOptions {
  /** Events up to this seq count as delivered. */
  startSeq: number;
  source: EventSource;
  deliver(event: StreamEvent): void;
  /** A read from the store failed; the next hint reads again. */
  onError(error: unknown): void;
  /** @default 500 */
  pageSize?: number;
}

export function createEventSequencer(options: EventSequencerOptions): EventSequencer {
  const pageSize = options.pageSize ?? 500;
  let lastSeq = options.startSeq;
  // This node's events that are not next in line yet: they wait for what comes before them.
  const early = new Map<number, StreamEvent>();
  let wanted = false;
  let running: Promise<void> | null = null;
  let stopped = false;

  function deliver(event: StreamEvent): void {
    lastSeq = event.seq;
    early.delete(event.seq);
    options.deliver(event);
  }

  async function readStore(): Promise<void> {
    for (;;) {
      const page = await options.source.listStreamEvents({ afterSeq: lastSeq, limit: pageSize });
      for (const event of page) {
        if (stopped) return;
        if (event.seq > lastSeq) deliver(event);
      }
      if (page.length < pageSize) return;
    }
  }

  function deliverEarly(): void {
    for (const seq of early.keys()) if (seq <= lastSeq) early.delete(seq);
    for (let next = early.get(lastSeq + 1); next !== undefined; next = early.get(lastSeq + 1)) deliver(next);
    // Whatever is left sits behind a gap: it committed, so the next read returns it with the gap.
    if (early.size > 0) wanted = true;
  }

  async function pump(): Promise<void> {
    try {
      while (wanted && !stopped) {
        wanted = false;
        await readStore();
        if (!stopped) deliverEarly();
      }
    } catch (error) {
      options.onError(error);
    } finally {
      running = null;
    }
  }

  function request(): void {
    wanted = true;
    running ??= pump();
  }

  return {
    offer(event) {
      if (stopped || event.seq <= lastSeq) return;
      // Nothing can be missing right before it, even while a read runs: no need to wait for one.
      if (event.seq === lastSeq + 1) {
        deliver(event);
        return;
      }
      early.set(event.seq, event);
      request();
    },
    hint(seq) {
      if (stopped || (seq !== undefined && seq <= lastSeq)) return;
      request();
    },
    get lastSeq() {
      return lastSeq;
    },
    idle: () => running ?? Promise.resolve(),
    stop() {
      stopped = true;
      early.clear();
    },
  };
}
