// Runs each benchmark module in turn (`node bench/run.js [filter…]`), then writes bench/results.json.
// A module exports `run()` and reports its figures through report.js; add new modules to the list.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { nodeSupportWarning } from '../packages/cli/dist/node-support.js';
import { writeResults } from './report.js';

const BENCHMARKS = [
  './policy.bench.js',
  './server-allow.bench.js',
  './round-trip.bench.js',
  './wakeup.bench.js',
  './cross-node-wakeup.bench.js',
  './waiting.bench.js',
  './hook.bench.js',
  './claude-code-http.bench.js',
  './audit-verify.bench.js',
  './audit-checkpoint.bench.js',
  './delivery.bench.js',
  './review.bench.js',
  './analysis.bench.js',
  './commands.bench.js',
  './trust-simulator.js',
  './review-health.js',
];

const readText = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
const engines = JSON.parse(readText('../package.json')).engines.node;
const newestLts = readText('../.ci/node-versions')
  .split('\n')
  .find((line) => line.trim() !== '' && !line.startsWith('#'))
  ?.trim();

const filters = process.argv.slice(2);
// Figures move with the runtime and the machine: each run says which it had.
console.log(`bench: Node.js ${process.version}, ${availableParallelism()} cores`);
// An unsupported runtime's figures are not the product's: say so, and how to run on the newest LTS line.
const unsupported =
  process.env.GATEHOUSE_NODE_CHECK === 'off' ? null : nodeSupportWarning(process.versions.node, engines);
if (unsupported !== null) {
  console.log(`bench: ${unsupported}`);
  console.log(`bench: on the newest LTS line: PATH="$(bash .ci/node-line ${newestLts}):$PATH" npm run bench`);
}
for (const path of BENCHMARKS) {
  if (filters.length > 0 && !filters.some((filter) => path.includes(filter))) continue;
  const { run } = await import(path);
  await run();
}
await writeResults(new URL('./results.json', import.meta.url));
