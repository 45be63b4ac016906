// Change analysis against the labelled corpus of real changes (bench/corpus): precision and recall per
// finding kind and for the destructive-action verdict, each beside its target of 0.9; then the time to
// analyse a 5,000-line unified diff (read and analysed), beside a line split and scan of the same text
// in the same run. Misses and false positives are listed by change id for the people tuning the rules.

import { changeInput, loadCorpus, rates, SCORED_KINDS, scoreCorpus } from './lib/analysis-corpus.js';
import { buildLargeDiff } from './lib/analysis-diff.js';
import { msSince, percentile } from './lib/stats.js';
import { report } from './report.js';

const TARGET = 0.9;
const RUNS = 10;
const WARMUP = 2;
const MARKERS =
  /\b(it|test|describe)\.skip\(|@pytest\.mark\.skip|t\.Skip\(|@Disabled|#\[ignore\]|assert|expect\(/;

async function loadAnalysis() {
  const analysis = await import('../packages/analysis/dist/index.js');
  if (typeof analysis.analyzeChange !== 'function') {
    throw new Error('packages/analysis/dist has no analyzeChange: run `npx tsc -b packages/analysis` first');
  }
  return analysis;
}

function reportRates(name, tally) {
  const { precision, recall } = rates(tally);
  const counts = `tp ${tally.tp} fp ${tally.fp} fn ${tally.fn} tn ${tally.tn}`;
  for (const [measure, value] of [
    ['precision', precision],
    ['recall', recall],
  ]) {
    if (value === null) console.log(`analysis ${measure} ${name}: n/a (${counts})`);
    else
      report(`analysis ${measure} ${name}`, {
        value,
        unit: `(target ${TARGET})`,
        baseline: TARGET,
        higherIsBetter: true,
      });
  }
  if (tally.misses.length > 0) console.log(`  missed: ${tally.misses.join(' ')}`);
  if (tally.falsePositives.length > 0) console.log(`  false positives: ${tally.falsePositives.join(' ')}`);
}

/** Lines of every file on both sides, counted by splitting: the baseline for one change. */
function splitFiles(input) {
  let lines = 0;
  for (const file of input.files) lines += scanLines(file.before ?? '') + scanLines(file.after ?? '');
  return lines;
}

function reportPercentiles(name, measured, baseline) {
  const sortedMeasured = Float64Array.from(measured).sort();
  const sortedBaseline = Float64Array.from(baseline).sort();
  for (const p of [50, 95]) {
    report(`${name} p${p}`, {
      value: percentile(sortedMeasured, p),
      unit: 'ms',
      baseline: percentile(sortedBaseline, p),
    });
  }
}

function reportSet(prefix, outcomes) {
  const scores = scoreCorpus(outcomes);
  const labelled = outcomes.filter(({ change }) => change.label.cutsCorners).length;
  console.log(
    `analysis ${prefix}corpus: ${outcomes.length} changes, ${labelled} cutting corners, ${outcomes.length - labelled} legitimate`,
  );
  for (const kind of SCORED_KINDS) reportRates(`${prefix}${kind}`, scores.kinds[kind]);
  reportRates(`${prefix}destructive findings`, scores.destructive);
  reportRates(`${prefix}destructive verdict`, scores.verdict);
  reportRates(`${prefix}destructive verdict or laziness`, scores.verdictOrLaziness);
}

async function accuracy(analysis, corpus) {
  const outcomes = [];
  const perChange = [];
  const perChangeBaseline = [];
  for (const change of corpus) {
    const input = changeInput(change);
    const baselineStart = process.hrtime.bigint();
    splitFiles(input);
    perChangeBaseline.push(msSince(baselineStart));
    const start = process.hrtime.bigint();
    outcomes.push({ change, result: await analysis.analyzeChange(input) });
    perChange.push(msSince(start));
  }
  reportSet(
    '',
    outcomes.filter(({ change }) => change.set === undefined),
  );
  // Changes from other repositories, kept apart so the rules are not tuned to them.
  reportSet(
    'held-out ',
    outcomes.filter(({ change }) => change.set === 'holdout'),
  );
  // Whole files before and after, as a coding agent's edit reaches the hook.
  reportPercentiles('analysis one corpus change', perChange, perChangeBaseline);
}

/** A line split and one regular expression per line: the least any reading of the text costs. */
function scanLines(text) {
  let hits = 0;
  for (const line of text.split('\n')) if (MARKERS.test(line)) hits += 1;
  return hits;
}

async function speed(analysis, corpus) {
  const { diff, lines, changes } = buildLargeDiff(corpus, { lines: 5000 });
  const analysed = [];
  const scanned = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const baselineStart = process.hrtime.bigint();
    scanLines(diff);
    const baseline = msSince(baselineStart);
    const start = process.hrtime.bigint();
    await analysis.analyzeChange({ files: analysis.diffToChanges(diff) });
    const measured = msSince(start);
    if (i < WARMUP) continue;
    scanned.push(baseline);
    analysed.push(measured);
  }
  console.log(`analysis diff: ${lines} lines from ${changes.length} changes; target ≤ 500 ms`);
  reportPercentiles('analysis 5000-line diff', analysed, scanned);
}

/** Accuracy over the corpus, then speed on a 5,000-line diff. */
export async function run() {
  const analysis = await loadAnalysis();
  await analysis.warmUp();
  const corpus = loadCorpus();
  await accuracy(analysis, corpus);
  await speed(analysis, corpus);
}
