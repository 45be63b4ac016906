import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AnalysisResult, ChangeInput } from 'gatehouse-hitl-analysis';
import { GatehouseError } from 'gatehouse-hitl-core';
import type { AnalysisWorkerMessage } from './analysis-worker.js';

/** Runs change analyses in worker threads, each under a time budget, so parsing never holds the event loop. */
export interface AnalysisPool {
  /** The analysis of `input`; ANALYSIS_TIMEOUT past the budget, RATE_LIMITED when the queue is full. */
  analyzeChange(input: ChangeInput): Promise<AnalysisResult>;
  close(): Promise<void>;
}

export interface AnalysisPoolOptions {
  log: FastifyBaseLogger;
  /** Analyses running at once, one worker thread each. @default 1 */
  workers?: number;
  /** Wall-clock time one analysis may take before its worker is stopped. @default 5000 */
  timeoutMs?: number;
  /** Analyses waiting for a worker before new ones are refused. @default 16 */
  maxQueued?: number;
}

const STARTUP_TIMEOUT_MS = 30_000;

interface WorkerScript {
  url: URL;
  workerData?: unknown;
}

/** The compiled worker next to this file; from TypeScript sources (tests), a bootstrap that transpiles. */
function workerScript(): WorkerScript {
  if (import.meta.url.endsWith('.js')) return { url: new URL('./analysis-worker.js', import.meta.url) };
  return {
    url: new URL('../../testing/ts-worker.mjs', import.meta.url),
    workerData: { entry: new URL('./analysis-worker.ts', import.meta.url).href },
  };
}

function timeoutError(timeoutMs: number): GatehouseError {
  return new GatehouseError(
    'ANALYSIS_TIMEOUT',
    `the analysis did not finish within ${timeoutMs} ms (GATEHOUSE_ANALYSIS_TIMEOUT_MS); analyse the change in smaller parts`,
    { limit: 'timeMs', timeoutMs },
  );
}

function startWorker(script: WorkerScript): Promise<Worker> {
  const worker = new Worker(script.url, { workerData: script.workerData });
  worker.unref();
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(new GatehouseError('SERVICE_UNAVAILABLE', 'the analysis worker did not start', {}, error));
    };
    const timer = setTimeout(() => fail(new Error('startup timed out')), STARTUP_TIMEOUT_MS);
    worker.once('error', fail);
    worker.once('message', (message: AnalysisWorkerMessage) => {
      clearTimeout(timer);
      worker.off('error', fail);
      if (message.type === 'ready') resolve(worker);
      else fail(new Error(`unexpected first message ${message.type}`));
    });
  });
}

/** Runs one analysis on `worker`; on any failure, the timeout included, the worker is terminated. */
function runJob(worker: Worker, input: ChangeInput, timeoutMs: number): Promise<AnalysisResult> {
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
    const timer = setTimeout(() => fail(timeoutError(timeoutMs)), timeoutMs);
    const onMessage = (message: AnalysisWorkerMessage) => {
      if (message.type === 'done') settle(() => resolve(message.result));
      else
        fail(
          new GatehouseError(
            'INTERNAL',
            `analysis failed: ${message.type === 'failed' ? message.message : message.type}`,
          ),
        );
    };
    const onError = (error: Error) =>
      fail(new GatehouseError('INTERNAL', 'analysis worker failed', {}, error));
    const onExit = () =>
      fail(new GatehouseError('INTERNAL', 'the analysis worker stopped during an analysis'));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage({ input });
  });
}

const shuttingDown = () => new GatehouseError('SERVICE_UNAVAILABLE', 'the server is shutting down');

/** Creates the pool; workers start on first use, and one stopped over its budget is replaced on the next. */
export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const workers = options.workers ?? 1;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxQueued = options.maxQueued ?? 16;
  const script = workerScript();
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
    if (waiting.length >= maxQueued) {
      const retryAfterSeconds = Math.max(1, Math.ceil(timeoutMs / 1000));
      throw new GatehouseError(
        'RATE_LIMITED',
        `${waiting.length} analyses are already waiting for the ${workers} analysis worker(s); retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds, queued: waiting.length, workers },
      );
    }
    // The slot is handed over by release(), so `running` stays counted.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }

  async function spawn(): Promise<Worker> {
    const worker = await startWorker(script);
    // A worker that ends while idle is dropped; an error outside a job must not go unheard.
    worker.on('exit', () => {
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    worker.on('error', (error) => options.log.warn({ err: error }, 'analysis worker failed'));
    return worker;
  }

  async function analyzeOn(input: ChangeInput): Promise<AnalysisResult> {
    const worker = idle.pop() ?? (await spawn());
    if (closed) {
      void worker.terminate();
      throw shuttingDown();
    }
    busy.add(worker);
    try {
      const result = await runJob(worker, input, timeoutMs);
      if (closed) void worker.terminate();
      else idle.push(worker);
      return result;
    } catch (error) {
      if (closed) throw shuttingDown();
      options.log.warn({ err: error }, 'analysis stopped');
      throw error;
    } finally {
      busy.delete(worker);
    }
  }

  return {
    async analyzeChange(input) {
      if (closed) throw shuttingDown();
      await acquire();
      try {
        if (closed) throw shuttingDown();
        return await analyzeOn(input);
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
