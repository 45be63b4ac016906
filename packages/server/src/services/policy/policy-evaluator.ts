import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { type ConditionOutcomes, GatehouseError } from 'gatehouse-hitl-core';
import { createWorkerPool, runOnWorker, workerScript } from '../worker-pool.js';
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

interface RunOptions {
  worker: Worker;
  job: PolicyWorkerJob;
  timeoutMs: number;
  maxMemoryMb: number;
}

/** Runs one job on `worker`, following which rule it is on so a budget error can name it. */
function runJob(options: RunOptions): Promise<ConditionOutcomes> {
  const { worker, job, timeoutMs, maxMemoryMb } = options;
  let ruleIndex: number | null = null;
  return runOnWorker(worker, job, {
    timeoutMs,
    timedOut: () => budgetError(job, ruleIndex, 'timeMs', timeoutMs),
    received: (message: PolicyWorkerMessage) => {
      if (message.type === 'rule') {
        ruleIndex = message.ruleIndex;
        return undefined;
      }
      if (message.type === 'done') return { result: message.outcomes };
      const detail = message.type === 'failed' ? message.message : message.type;
      return { error: new GatehouseError('INTERNAL', `policy worker failed: ${detail}`) };
    },
    crashed: (error) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? budgetError(job, ruleIndex, 'memoryMb', maxMemoryMb)
        : new GatehouseError('INTERNAL', 'policy worker failed', {}, error),
    exited: () => new GatehouseError('INTERNAL', 'policy worker stopped during an evaluation'),
  });
}

/** Creates the pool; workers start on first use and a stopped one is replaced on the next. */
export function createPolicyEvaluator(options: PolicyEvaluatorOptions): PolicyEvaluator {
  const timeoutMs = options.timeoutMs ?? 2000;
  const maxMemoryMb = options.maxMemoryMb ?? 128;
  const pool = createWorkerPool<PolicyWorkerJob, ConditionOutcomes>({
    log: options.log,
    script: workerScript(import.meta.url, 'policy-worker'),
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    workers: options.concurrency ?? 2,
    maxQueued: options.maxQueued ?? 16,
    queueFull: () => new GatehouseError('SERVICE_UNAVAILABLE', 'too many dry runs at once; retry shortly'),
    messages: {
      notStarted: 'the policy worker did not start',
      workerFailed: 'policy worker failed',
      jobStopped: 'policy evaluation stopped',
    },
    closeInterruptsJobs: false,
    runJob: (worker, job) => runJob({ worker, job, timeoutMs, maxMemoryMb }),
  });
  return { evaluate: (job) => pool.run(job), close: () => pool.close() };
}
