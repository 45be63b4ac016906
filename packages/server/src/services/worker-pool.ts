import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { GatehouseError } from 'gatehouse-hitl-core';

/** A fixed number of worker threads running jobs one at a time each, with a bounded queue in front. */
export interface WorkerPool<Job, Result> {
  run(job: Job): Promise<Result>;
  close(): Promise<void>;
}

export interface WorkerScript {
  url: URL;
  workerData?: unknown;
}

/** What a message from the worker means for the job in hand: its result, its failure, or nothing yet. */
export type JobStep<Result> = { result: Result } | { error: GatehouseError } | undefined;

export interface JobHandlers<Message, Result> {
  timeoutMs: number;
  timedOut(): GatehouseError;
  received(message: Message): JobStep<Result>;
  crashed(error: Error & { code?: string }): GatehouseError;
  exited(): GatehouseError;
}

export interface WorkerPoolOptions<Job, Result> {
  log: FastifyBaseLogger;
  script: WorkerScript;
  resourceLimits?: ResourceLimits;
  /** Jobs running at once, one worker thread each. */
  workers: number;
  /** Jobs waiting for a worker before new ones are refused with `queueFull`. */
  maxQueued: number;
  queueFull(queued: number): GatehouseError;
  /** Runs one job on `worker` (see runOnWorker), which is terminated on any failure. */
  runJob(worker: Worker, job: Job): Promise<Result>;
  /** The startup failure, and the log lines for a worker error outside a job and for a failed job. */
  messages: { notStarted: string; workerFailed: string; jobStopped: string };
  /** Whether close() turns jobs in flight into "shutting down" refusals and stops workers that start late. */
  closeInterruptsJobs: boolean;
}

const STARTUP_TIMEOUT_MS = 30_000;

/** The compiled worker `<name>.js` next to `moduleUrl`; from TypeScript sources (tests), a bootstrap that transpiles `<name>.ts`. */
export function workerScript(moduleUrl: string, name: string): WorkerScript {
  if (moduleUrl.endsWith('.js')) return { url: new URL(`./${name}.js`, moduleUrl) };
  return {
    url: new URL('../../testing/ts-worker.mjs', moduleUrl),
    workerData: { entry: new URL(`./${name}.ts`, moduleUrl).href },
  };
}

type StartOptions = Pick<WorkerPoolOptions<unknown, unknown>, 'script' | 'resourceLimits' | 'messages'>;

function startWorker(options: StartOptions): Promise<Worker> {
  const { script, resourceLimits } = options;
  const worker = new Worker(script.url, {
    workerData: script.workerData,
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
  });
  worker.unref();
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(new GatehouseError('SERVICE_UNAVAILABLE', options.messages.notStarted, {}, error));
    };
    const timer = setTimeout(() => fail(new Error('startup timed out')), STARTUP_TIMEOUT_MS);
    worker.once('error', fail);
    worker.once('message', (message: { type: string }) => {
      clearTimeout(timer);
      worker.off('error', fail);
      if (message.type === 'ready') resolve(worker);
      else fail(new Error(`unexpected first message ${message.type}`));
    });
  });
}

/** Posts `payload` to `worker` and settles as `handlers` say; on any failure, the timeout included, the worker is terminated. */
export function runOnWorker<Message, Result>(
  worker: Worker,
  payload: unknown,
  handlers: JobHandlers<Message, Result>,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      outcome();
    };
    const fail = (error: GatehouseError) =>
      settle(() => {
        void worker.terminate();
        reject(error);
      });
    const timer = setTimeout(() => fail(handlers.timedOut()), handlers.timeoutMs);
    const onMessage = (message: Message) => {
      const step = handlers.received(message);
      if (step === undefined) return;
      if ('error' in step) fail(step.error);
      else settle(() => resolve(step.result));
    };
    const onError = (error: Error & { code?: string }) => fail(handlers.crashed(error));
    const onExit = () => fail(handlers.exited());
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(payload);
  });
}

const shuttingDown = () => new GatehouseError('SERVICE_UNAVAILABLE', 'the server is shutting down');

/** Creates the pool; workers start on first use, and one stopped by a failed job is replaced on the next. */
export function createWorkerPool<Job, Result>(
  options: WorkerPoolOptions<Job, Result>,
): WorkerPool<Job, Result> {
  const { log, workers, maxQueued, closeInterruptsJobs } = options;
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  const waiting: (() => void)[] = [];
  let running = 0;
  let closed = false;

  async function acquire(): Promise<void> {
    if (running < workers) {
      running += 1;
      return;
    }
    if (waiting.length >= maxQueued) throw options.queueFull(waiting.length);
    // The slot is handed over by release(), so `running` stays counted.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }

  async function spawn(): Promise<Worker> {
    const worker = await startWorker(options);
    // A worker that ends while idle is dropped; an error outside a job must not go unheard.
    worker.on('exit', () => {
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    worker.on('error', (error) => log.warn({ err: error }, options.messages.workerFailed));
    return worker;
  }

  async function runOn(job: Job): Promise<Result> {
    const worker = idle.pop() ?? (await spawn());
    if (closed && closeInterruptsJobs) {
      void worker.terminate();
      throw shuttingDown();
    }
    busy.add(worker);
    try {
      const result = await options.runJob(worker, job);
      if (!closed) idle.push(worker);
      else if (closeInterruptsJobs) void worker.terminate();
      return result;
    } catch (error) {
      if (closed && closeInterruptsJobs) throw shuttingDown();
      log.warn({ err: error }, options.messages.jobStopped);
      throw error;
    } finally {
      busy.delete(worker);
    }
  }

  return {
    async run(job) {
      if (closed) throw shuttingDown();
      await acquire();
      try {
        if (closed) throw shuttingDown();
        return await runOn(job);
      } finally {
        release();
      }
    },
    async close() {
      closed = true;
      const all = [...idle.splice(0), ...busy];
      await Promise.all(all.map((worker) => worker.terminate()));
    },
  };
}
