// Review health against a simulated month of decisions: four agents whose tool calls are drawn from
// the held-out sources of the command corpus (bench/corpus/commands, benign and must-gate), and
// scripted reviewers — careful ones (one quick but reading, one deciding from Slack), one who
// rejects dangerous calls, and one who approves everything in under 2 s without opening anything.
// Core's computations run in-process over 20 seeded months. Figures: months in which the
// rubber-stamper was found and reviewer-months of everyone else left unflagged; each baseline is its target (100 %).
import { readFileSync } from 'node:fs';
import * as core from '../packages/core/dist/index.js';
import { report } from './report.js';

const DIR = new URL('./corpus/commands/', import.meta.url);
const DAY = 86_400_000;
const MONTHS = 20;
const AGENTS = 4;
const CALLS_PER_AGENT_PER_DAY = 12;

function loadHeldOutCalls() {
  const split = JSON.parse(readFileSync(new URL('split.json', DIR), 'utf8'));
  return split.held_out.flatMap((file) => JSON.parse(readFileSync(new URL(file, DIR), 'utf8')).items);
}

/** A small seeded generator (mulberry32), so every run simulates the same months. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Seconds drawn log-normally around `median`. */
function seconds(next, median, spread = 0.6) {
  const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return median * Math.exp(spread * normal);
}

function pick(next, items) {
  return items[Math.floor(next() * items.length)];
}

const PARTS = ['diff', 'arguments', 'findings'];

/** How each scripted reviewer answers one gate: outcome, seconds to decide, parts opened (null: from Slack). */
const REVIEWERS = [
  {
    id: 'u_ana',
    role: 'developer',
    careful: true,
    load: 3,
    answer: (n, call) => careful(n, call, { low: 25, high: 80 }),
  },
  {
    id: 'u_ben',
    role: 'developer',
    careful: true,
    load: 3,
    answer: (n, call) => careful(n, call, { low: 12, high: 40 }),
  },
  {
    id: 'u_cy',
    role: 'tech_lead',
    careful: true,
    load: 2,
    answer: (n, call) => careful(n, call, { low: 6, high: 14 }),
  },
  {
    id: 'u_dee',
    role: 'tech_lead',
    careful: true,
    load: 2,
    answer: (n, call) => ({
      ...careful(n, call, { low: 30, high: 90 }),
      viewed: n() < 0.6 ? null : ['arguments'],
    }),
  },
  {
    id: 'u_eve',
    role: 'admin',
    careful: true,
    load: 2,
    answer: (n, call) => ({
      outcome: call.dangerous ? 'rejected' : 'approved',
      seconds: seconds(n, call.dangerous ? 20 : 10),
      viewed: ['arguments', ...(n() < 0.5 ? ['findings'] : [])],
    }),
  },
  {
    id: 'u_sam',
    role: 'developer',
    careful: false,
    load: 3,
    answer: (n) => ({ outcome: 'approved', seconds: 0.3 + n() * 1.6, viewed: [] }),
  },
];

function careful(next, call, medians) {
  const viewed = PARTS.filter((_, index) => index === 1 || next() < 0.5);
  const rejectShare = call.dangerous ? 0.55 : 0.04;
  const outcome = next() < rejectShare ? (next() < 0.3 ? 'steered' : 'rejected') : 'approved';
  return {
    outcome,
    seconds: seconds(next, call.risk === 'high' || call.risk === 'critical' ? medians.high : medians.low),
    viewed,
  };
}

function riskOf(next, item) {
  if (item.label === 'must_gate') return next() < 0.3 ? 'critical' : 'high';
  return next() < 0.6 ? 'low' : 'medium';
}

/** One month of gates and their decisions. */
function simulateMonth(seed, calls) {
  const next = random(seed);
  const start = Date.UTC(2026, 0, 1);
  const weighted = REVIEWERS.flatMap((reviewer) => Array.from({ length: reviewer.load }, () => reviewer));
  const decisions = [];
  let gate = 0;
  for (let day = 0; day < 30; day++) {
    for (let agent = 0; agent < AGENTS * CALLS_PER_AGENT_PER_DAY; agent++) {
      const item = pick(next, calls);
      const call = { dangerous: item.label === 'must_gate', risk: riskOf(next, item) };
      const reviewer = pick(next, weighted);
      const answer = reviewer.answer(next, call);
      const openedAt = start + day * DAY + Math.floor(next() * (DAY - 3_600_000));
      decisions.push({
        gateId: `gate_${seed}_${gate++}`,
        reviewer: reviewer.id,
        risk: call.risk,
        openedAt,
        decidedAt: openedAt + Math.round(answer.seconds * 1000),
        outcome: answer.outcome,
        viewed: answer.viewed,
        contradicted: answer.outcome === 'approved' && call.dangerous && next() < 0.3,
      });
    }
  }
  const reviewers = REVIEWERS.map(({ id, role }) => ({ id, name: id.slice(2), role }));
  const window = { from: start, to: start + 30 * DAY };
  return core.computeReviewHealth({ decisions, timeouts: [], reviewers, window, now: window.to });
}

export async function run() {
  const calls = loadHeldOutCalls();
  const stamper = REVIEWERS.find((r) => !r.careful).id;
  const others = REVIEWERS.filter((r) => r.careful).map((r) => r.id);
  let found = 0;
  let flaggedCareful = 0;
  let example = null;
  const started = performance.now();
  for (let month = 1; month <= MONTHS; month++) {
    const health = simulateMonth(month, calls);
    const flagged = new Set(health.flags.map((flag) => flag.reviewer));
    if (flagged.has(stamper)) found += 1;
    flaggedCareful += others.filter((id) => flagged.has(id)).length;
    example ??= health.flags.find((flag) => flag.reviewer === stamper) ?? null;
  }
  const msPerMonth = (performance.now() - started) / MONTHS;
  console.log(
    `review-health: ${MONTHS} simulated months of ${AGENTS * CALLS_PER_AGENT_PER_DAY * 30} decisions from ${calls.length} held-out corpus calls; ` +
      `rubber-stamper found in ${found} of ${MONTHS}; careful reviewers flagged ${flaggedCareful} of ${others.length * MONTHS} reviewer-months (${msPerMonth.toFixed(1)} ms a month)`,
  );
  if (example)
    console.log(`review-health: e.g. "${example.pattern}" (${example.gateIds.length} gates named)`);
  report('review-health rubber-stamper found', {
    value: (100 * found) / MONTHS,
    unit: '% of months',
    baseline: 100,
    higherIsBetter: true,
  });
  report('review-health careful reviewers not flagged', {
    value: (100 * (others.length * MONTHS - flaggedCareful)) / (others.length * MONTHS),
    unit: '% of reviewer-months',
    baseline: 100,
    higherIsBetter: true,
  });
}
