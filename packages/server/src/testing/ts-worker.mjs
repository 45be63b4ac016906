// Worker entry used when the server runs from its TypeScript sources (tests): registers the
// transpiling hooks, then imports the real worker module named in workerData.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

register('./ts-worker-hooks.mjs', import.meta.url);
await import(workerData.entry);
