import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { type ConditionOutcomes, GatehouseError } from 'gatehouse-hitl-core';
import type { PolicyWorkerJob, PolicyWorkerMessage } from './policy-worker.js';

/** Evaluates policy conditions in worker threads, each evaluation under a time and memory budget. */
export interface PolicyEvaluator {
  /** The outcome of every condition the request ran; POLICY_BUDGET_EXCEEDED when stopped. */
  evaluate(job: PolicyWorkerJob): Promise<ConditionOutcomes>;
  close(): Promise<void>;
}

export interface PolicyEvaluatorOptions {
  log: FastifyBaseLogger;
  /** Wall-clock time one evaluation may take. @default 2000 */
  timeoutMs?: number;
  /** Old-generation heap of one worker. @default 128 */
  maxMemoryMb?: number;
  /** Evaluations running at once. @default 2 */
  concurrency?: number;
  /** Evaluations waiting for a worker before new ones are refused. @default 16 */
  maxQueued?: number;
}

const STARTUP_TIMEOUT_MS = 30_000;

interface WorkerScript {
  url: URL;
  workerData?: unknown;
}

/** The compiled worker next to this file; from TypeScript sources (tests), a bootstrap that transpiles. */
function workerScript(): WorkerScript {
  if (import.meta.url.endsWith('.js')) return { url: new URL('./policy-worker.js', import.meta.url) };
  return {
    url: new URL('../../testing/ts-worker.mjs', import.meta.url),
    workerData: { entry: new URL('./policy-worker.ts', import.meta.url).href },
  };
}

function budgetError(
  job: PolicyWorkerJob,
  ruleIndex: number | null,
  limit: 'timeMs' | 'memoryMb',
  max: number,
) {
  const rule = ruleIndex === null ? undefined : job.policy.rules[ruleIndex];
  const which = rule === undefined ? 'the policy' : `rule "${rule.id}" at index ${ruleIndex}`;
  const what =
    limit === 'timeMs' ? `did not finish within ${max} ms` : `needed more than ${max} MB of memory`;
  return new GatehouseError(
    'POLICY_BUDGET_EXCEEDED',
    `dry run stopped: ${which} ${what}; make its condition cheaper or the request's inputs smaller`,
    { ruleId: rule?.id ?? null, ruleIndex, limit, max },
  );
}

function startWorker(script: WorkerScript, maxMemoryMb: number): Promise<Worker> {
  const worker = new Worker(script.url, {
    workerData: script.workerData,
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  worker.unref();
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(new GatehouseError('SERVICE_UNAVAILABLE', 'the policy worker did not start', {}, error));
    };
    const timer = setTimeout(() => fail(new Error('startup timed out')), STARTUP_TIMEOUT_MS);
    worker.once('error', fail);
    worker.once('message', (message: PolicyWorkerMessage) => {
      clearTimeout(timer);
      worker.off('error', fail);
      if (message.type === 'ready') resolve(worker);
      else fail(new Error(`unexpected first message ${message.type}`));
    });
  });
}

interface RunOptions {
  worker: Worker;
  job: PolicyWorkerJob;
  timeoutMs: number;
  maxMemoryMb: number;
}

/** Runs one job on `worker`; on any failure the worker is terminated. */
function runJob(options: RunOptions): Promise<ConditionOutcomes> {
  const { worker, job, timeoutMs, maxMemoryMb } = options;
  let ruleIndex: number | null = null;
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
    const timer = setTimeout(() => fail(budgetError(job, ruleIndex, 'timeMs', timeoutMs)), timeoutMs);
    const onMessage = (message: PolicyWorkerMessage) => {
      if (message.type === 'rule') ruleIndex = message.ruleIndex;
      else if (message.type === 'done') settle(() => resolve(message.outcomes));
      else
        fail(
          new GatehouseError(
            'INTERNAL',
            `policy worker failed: ${message.type === 'failed' ? message.message : message.type}`,
          ),
        );
    };
    const onError = (error: Error & { code?: string }) =>
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? budgetError(job, ruleIndex, 'memoryMb', maxMemoryMb)
          : new GatehouseError('INTERNAL', 'policy worker failed', {}, error),
      );
    const onExit = () => fail(new GatehouseError('INTERNAL', 'policy worker stopped during an evaluation'));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job);
  });
}

/** Creates the pool; workers start on first use and a stopped one is replaced on the next. */
export function createPolicyEvaluator(options: PolicyEvaluatorOptions): PolicyEvaluator {
  const timeoutMs = options.timeoutMs ?? 2000;
  const maxMemoryMb = options.maxMemoryMb ?? 128;
  const concurrency = options.concurrency ?? 2;
  const maxQueued = options.maxQueued ?? 16;
  const script = workerScript();
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  const waiting: (() => void)[] = [];
  let running = 0;
  let closed = false;

  async function acquire(): Promise<void> {
    if (running < concurrency) {
      running += 1;
      return;
    }
    if (waiting.length >= maxQueued) {
      throw new GatehouseError('SERVICE_UNAVAILABLE', 'too many dry runs at once; retry shortly');
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
    const worker = await startWorker(script, maxMemoryMb);
    // A worker that ends while idle is dropped; an error outside a job must not go unheard.
    worker.on('exit', () => {
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    worker.on('error', (error) => options.log.warn({ err: error }, 'policy worker failed'));
    return worker;
  }

  async function evaluateOn(job: PolicyWorkerJob): Promise<ConditionOutcomes> {
    const worker = idle.pop() ?? (await spawn());
    busy.add(worker);
    try {
      const outcomes = await runJob({ worker, job, timeoutMs, maxMemoryMb });
      if (!closed) idle.push(worker);
      return outcomes;
    } catch (error) {
      options.log.warn({ err: error }, 'policy evaluation stopped');
      throw error;
    } finally {
      busy.delete(worker);
    }
  }

  return {
    async evaluate(job) {
      if (closed) throw new GatehouseError('SERVICE_UNAVAILABLE', 'the server is shutting down');
      await acquire();
      try {
        if (closed) throw new GatehouseError('SERVICE_UNAVAILABLE', 'the server is shutting down');
        return await evaluateOn(job);
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
