import { parentPort } from 'node:worker_threads';
import { type AnalysisResult, analyzeChange, type ChangeInput, warmUp } from 'gatehouse-hitl-analysis';

/** One analysis asked of an analysis worker. */
export interface AnalysisWorkerJob {
  input: ChangeInput;
}

/** What an analysis worker tells the thread that started it. */
export type AnalysisWorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; result: AnalysisResult }
  | { type: 'failed'; message: string };

async function analyze(job: AnalysisWorkerJob, post: (message: AnalysisWorkerMessage) => void) {
  try {
    post({ type: 'done', result: await analyzeChange(job.input) });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

const port = parentPort;
if (port !== null) {
  const post = (message: AnalysisWorkerMessage) => port.postMessage(message);
  // Grammars load before the worker says it is ready, so no job's budget pays for them.
  await warmUp();
  port.on('message', (job: AnalysisWorkerJob) => void analyze(job, post));
  post({ type: 'ready' });
}
