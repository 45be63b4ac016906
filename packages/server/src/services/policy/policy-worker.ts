import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import {
  type ConditionOutcomes,
  compilePolicy,
  type Policy,
  type PolicyRequest,
  recordConditionOutcomes,
} from 'gatehouse-hitl-core';

/** One evaluation asked of a policy worker. */
export interface PolicyWorkerJob {
  policy: Policy;
  request: PolicyRequest;
}

/** What a policy worker tells the thread that started it. */
export type PolicyWorkerMessage =
  | { type: 'ready' }
  | { type: 'rule'; ruleIndex: number }
  | { type: 'done'; outcomes: ConditionOutcomes }
  | { type: 'failed'; message: string };

function evaluate(job: PolicyWorkerJob, post: (message: PolicyWorkerMessage) => void): void {
  try {
    // The policy passed every check on the main thread; it is compiled again here to run its CEL.
    const compiled = compilePolicy(job.policy);
    const outcomes = recordConditionOutcomes(compiled, job.request, (ruleIndex) =>
      post({ type: 'rule', ruleIndex }),
    );
    post({ type: 'done', outcomes });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Runs this thread at the lowest CPU priority, so an evaluation spinning until its time limit never
 * takes the core the event loop needs. Linux keeps nice values per thread; elsewhere this is skipped.
 */
function yieldCpu(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid)) setPriority(tid, 19);
  } catch {
    // No /proc (not Linux): the thread keeps the process's priority.
  }
}

const port = parentPort;
if (port !== null) {
  yieldCpu();
  const post = (message: PolicyWorkerMessage) => port.postMessage(message);
  port.on('message', (job: PolicyWorkerJob) => evaluate(job, post));
  post({ type: 'ready' });
}
