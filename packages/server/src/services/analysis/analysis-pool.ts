import type { FastifyBaseLogger } from 'fastify';
import type { AnalysisResult, ChangeInput } from 'gatehouse-hitl-analysis';
import { GatehouseError } from 'gatehouse-hitl-core';
import { createWorkerPool, runOnWorker, workerScript } from '../worker-pool.js';
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

function timeoutError(timeoutMs: number): GatehouseError {
  return new GatehouseError(
    'ANALYSIS_TIMEOUT',
    `the analysis did not finish within ${timeoutMs} ms (GATEHOUSE_ANALYSIS_TIMEOUT_MS); analyse the change in smaller parts`,
    { limit: 'timeMs', timeoutMs },
  );
}

function queueFullError(queued: number, workers: number, timeoutMs: number): GatehouseError {
  const retryAfterSeconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return new GatehouseError(
    'RATE_LIMITED',
    `${queued} analyses are already waiting for the ${workers} analysis worker(s); retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds, queued, workers },
  );
}

/** Creates the pool; workers start on first use, and one stopped over its budget is replaced on the next. */
export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const workers = options.workers ?? 1;
  const timeoutMs = options.timeoutMs ?? 5000;
  const pool = createWorkerPool<ChangeInput, AnalysisResult>({
    log: options.log,
    script: workerScript(import.meta.url, 'analysis-worker'),
    workers,
    maxQueued: options.maxQueued ?? 16,
    queueFull: (queued) => queueFullError(queued, workers, timeoutMs),
    messages: {
      notStarted: 'the analysis worker did not start',
      workerFailed: 'analysis worker failed',
      jobStopped: 'analysis stopped',
    },
    closeInterruptsJobs: true,
    runJob: (worker, input) =>
      runOnWorker(
        worker,
        { input },
        {
          timeoutMs,
          timedOut: () => timeoutError(timeoutMs),
          received: (message: AnalysisWorkerMessage) =>
            message.type === 'done'
              ? { result: message.result }
              : {
                  error: new GatehouseError(
                    'INTERNAL',
                    `analysis failed: ${message.type === 'failed' ? message.message : message.type}`,
                  ),
                },
          crashed: (error) => new GatehouseError('INTERNAL', 'analysis worker failed', {}, error),
          exited: () => new GatehouseError('INTERNAL', 'the analysis worker stopped during an analysis'),
        },
      ),
  });
  return { analyzeChange: (input) => pool.run(input), close: () => pool.close() };
}
