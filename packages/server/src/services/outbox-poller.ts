import type { FastifyBaseLogger } from 'fastify';

/** A worker over an outbox table: any node may claim any due row. */
export interface OutboxPoller {
  /** Polls every `pollIntervalMs` and whenever its own signal says work was queued. */
  start(): void;
  /** Looks for work now. */
  wake(): void;
  /** Stops polling, aborts the signal attempts in flight were given and waits for them. */
  stop(): Promise<void>;
}

/** The round in progress, as `prepare` sees it. */
export interface PollRound {
  /** False once `stop()` was called: long preparation stops early. */
  readonly running: boolean;
  /** Asks for another round as soon as this one ends (more work is queued than one round takes). */
  again(): void;
}

/** What one kind of outbox work does; the poller owns the loop, the timer, the wake-ups and the shutdown. */
export interface OutboxPollerOptions<Job> {
  log: FastifyBaseLogger;
  pollIntervalMs: number;
  /** Attempts in flight at once on this node. */
  concurrency: number;
  /** Subscribes `wake` to the signal a commit of this work sends; null when nothing will queue any. */
  subscribe: ((wake: () => void) => () => void) | null;
  /** Says whether anything is due or queued; false ends the round without a claim. */
  prepare(round: PollRound): Promise<boolean>;
  /** Claims up to `limit` due rows for this node. */
  claim(limit: number): Promise<Job[]>;
  /** Moves queued work into claimable rows, after the claim so rows already due never wait behind it. */
  route?(round: PollRound): Promise<void>;
  /** Delivers one claimed row and records its outcome; `signal` aborts on `stop()`. */
  attempt(job: Job, signal: AbortSignal): Promise<void>;
  /** An attempt whose outcome could not be recorded: its claim runs out and a node tries again. */
  attemptFailed(job: Job, error: unknown): void;
  /** The message logged when a round fails (the next poll retries it). */
  roundFailed: string;
  onStart?: () => void;
}

/** Creates the claim-deliver-back-off loop shared by the webhook and notification workers. */
export function createOutboxPoller<Job>(options: OutboxPollerOptions<Job>): OutboxPoller {
  const { log } = options;
  const inFlight = new Set<Promise<void>>();
  let shutdown = new AbortController();
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let unsubscribe: (() => void) | null = null;
  const pollRound: PollRound = {
    get running() {
      return running;
    },
    again() {
      again = true;
    },
  };

  function track(job: Job): void {
    const done: Promise<void> = options
      .attempt(job, shutdown.signal)
      .catch((error: unknown) => options.attemptFailed(job, error))
      .finally(() => {
        inFlight.delete(done);
        wake();
      });
    inFlight.add(done);
  }

  async function work(): Promise<void> {
    if (!(await options.prepare(pollRound))) return;
    const free = options.concurrency - inFlight.size;
    if (running && free > 0) for (const job of await options.claim(free)) track(job);
    if (running) await options.route?.(pollRound);
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(tick, options.pollIntervalMs);
    timer.unref();
  }

  function tick(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    round = work()
      .catch((error: unknown) => log.warn({ err: error }, options.roundFailed))
      .finally(() => {
        round = null;
        if (again && running) {
          again = false;
          tick();
        } else schedule();
      });
  }

  function wake(): void {
    if (!running) return;
    if (round !== null) again = true;
    else tick();
  }

  return {
    start() {
      if (running) return;
      running = true;
      shutdown = new AbortController();
      options.onStart?.();
      unsubscribe = options.subscribe?.(wake) ?? null;
      tick();
    },
    wake,
    async stop() {
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      shutdown.abort();
      await round;
      await Promise.all([...inFlight]);
    },
  };
}
