// Policy decisions: the indexed evaluator against the naive one (every rule, in order) on the same requests.
import { compilePolicy, evaluatePolicy, evaluatePolicyNaive } from '../packages/core/dist/index.js';
import { report } from './report.js';

/** Small seeded generator, so every run measures the same policies and requests. */
function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max) => Math.floor(next() * max);
  const pick = (list) => list[int(list.length)];
  const some = (list, max) => [...new Set(Array.from({ length: 1 + int(max) }, () => pick(list)))];
  return { next, int, pick, some };
}

const VERBS = ['read', 'write', 'edit', 'delete', 'search', 'fetch', 'deploy', 'query', 'list', 'sync'];
const NOUNS = [
  'file',
  'db',
  'api',
  'repo',
  'cache',
  'queue',
  'bucket',
  'config',
  'log',
  'user',
  'ticket',
  'secret',
];
const TOOLS = VERBS.flatMap((verb) => NOUNS.map((noun) => `${verb}_${noun}`)).concat([
  'shell_execute',
  'git_command',
]);
const EVENTS = [
  'tool_call',
  'operation',
  'task_completion',
  'planning_complete',
  'constraint_violation',
  'recovery',
];
const GATE_TYPES = ['code_review', 'deployment_approval', 'phase_review', 'design_review'];
const CONDITIONS = [
  'has(args.path) && args.path.startsWith("src/")',
  'has(args.command) && isDestructive(args.command)',
  'confidence != null && confidence < 0.7',
  'riskAtLeast("high")',
  'agent.id.startsWith("agent-1")',
  'run != null && run.autonomy == "full"',
  'impact != null && has(impact.files) && size(impact.files) > 20',
  'alwaysGated()',
  'has(args.url) && args.url.startsWith("https://internal.")',
  'size(args) > 3',
  'has(args.limit) && args.limit > 100',
  'tool != null && tool.endsWith("_secret")',
];

function generateRule(random, i) {
  const roll = random.next();
  const rule = {
    id: `rule-${i}`,
    priority: random.int(1001),
    action: random.pick(['allow', 'allow', 'allow', 'gate', 'gate', 'gate', 'deny']),
    reason: `generated rule ${i}`,
  };
  if (rule.action === 'gate') rule.action = { gate: { risk: random.pick(['low', 'medium', 'high']) } };
  if (roll < 0.7) rule.match = { tools: random.some(TOOLS, 3) };
  else if (roll < 0.77) rule.match = { tools: random.some(TOOLS, 2), events: ['tool_call'] };
  else if (roll < 0.92) rule.match = { events: [random.pick(EVENTS)] };
  else if (roll < 0.97) rule.match = { gateTypes: [random.pick(GATE_TYPES)] };
  if (rule.match === undefined || rule.match.tools === undefined || random.next() < 0.6) {
    rule.condition = random.pick(CONDITIONS);
  }
  return rule;
}

function generateRequest(random, i) {
  const event = random.next() < 0.8 ? 'tool_call' : random.pick(EVENTS);
  const args = {};
  if (random.next() < 0.6)
    args.path = random.pick(['src/app.ts', 'docs/readme.md', 'config/production.yaml', '.env']);
  if (random.next() < 0.3) args.command = random.pick(['npm test', 'ls -la', 'rm -rf build', 'git status']);
  if (random.next() < 0.2)
    args.url = random.pick(['https://internal.example.com', 'https://api.example.com']);
  if (random.next() < 0.3) args.limit = random.int(200);
  const request = { event, args, agent: { id: `agent-${random.int(20)}`, profile: 'coder' } };
  if (event === 'tool_call' || random.next() < 0.3)
    request.tool = random.next() < 0.95 ? random.pick(TOOLS) : `other_${i}`;
  if (random.next() < 0.2) request.gateType = random.pick(GATE_TYPES);
  if (random.next() < 0.7) request.confidence = random.next();
  if (random.next() < 0.5) request.risk = random.pick(['low', 'medium', 'high', 'critical']);
  if (random.next() < 0.7)
    request.run = { id: 'run-1', autonomy: random.pick(['full', 'partial']), approvalMode: 'auto' };
  if (random.next() < 0.2)
    request.impact = { files: Array.from({ length: random.int(40) }, (_, n) => `f${n}`) };
  return request;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times each call; indexed and naive run in alternating blocks so drift hits both alike. */
function measure(compiled, requests, { warmup, samples }) {
  const evaluators = [evaluatePolicy, evaluatePolicyNaive];
  for (const evaluate of evaluators)
    for (let i = 0; i < warmup; i++) evaluate(compiled, requests[i % requests.length]);
  const times = evaluators.map(() => new Float64Array(samples));
  const block = 1000;
  for (let start = 0; start < samples; start += block) {
    evaluators.forEach((evaluate, which) => {
      for (let i = start; i < Math.min(start + block, samples); i++) {
        const request = requests[i % requests.length];
        const t0 = process.hrtime.bigint();
        evaluate(compiled, request);
        times[which][i] = Number(process.hrtime.bigint() - t0) / 1000;
      }
    });
  }
  return times.map((t) => {
    const sorted = Float64Array.from(t).sort();
    return { mean: t.reduce((sum, x) => sum + x, 0) / t.length, p99: percentile(sorted, 99) };
  });
}

function checkAgreement(compiled, requests) {
  for (const request of requests) {
    const a = evaluatePolicy(compiled, request);
    const b = evaluatePolicyNaive(compiled, request);
    if (a.action !== b.action || a.ruleId !== b.ruleId) {
      throw new Error(`indexed and naive disagree on ${JSON.stringify(request)}`);
    }
  }
}

function benchPolicy(ruleCount, { warmup, samples }) {
  const random = createRandom(ruleCount * 7919);
  const compiled = compilePolicy({
    name: `generated-${ruleCount}`,
    rules: Array.from({ length: ruleCount }, (_, i) => generateRule(random, i)),
  });
  const requests = Array.from({ length: 2000 }, (_, i) => generateRequest(random, i));
  checkAgreement(compiled, requests);
  const [indexed, naive] = measure(compiled, requests, { warmup, samples });
  return { indexed, naive };
}

/** Decides requests against a 50-rule and a 1,000-rule policy and reports mean and p99 per decision. */
export function run() {
  const small = benchPolicy(50, { warmup: 20_000, samples: 100_000 });
  report('policy.decide.50-rules.mean', {
    value: small.indexed.mean,
    unit: 'µs',
    baseline: small.naive.mean,
  });
  report('policy.decide.50-rules.p99', { value: small.indexed.p99, unit: 'µs', baseline: small.naive.p99 });
  const large = benchPolicy(1000, { warmup: 5_000, samples: 30_000 });
  report('policy.decide.1000-rules.mean', {
    value: large.indexed.mean,
    unit: 'µs',
    baseline: large.naive.mean,
  });
  report('policy.decide.1000-rules.p99', { value: large.indexed.p99, unit: 'µs', baseline: large.naive.p99 });
}
