// The labelled corpus of real changes (bench/corpus) and how analysis results are scored against it:
// per finding kind and per verdict, at the level of a change (a kind is predicted when the analysis
// reports at least one finding of that kind for the change).
import { readdirSync, readFileSync } from 'node:fs';
import { decideCheck } from '../../packages/cli/dist/commands/check-verdict.js';
import { destructiveContextOfChange, evaluateTrigger } from '../../packages/core/dist/index.js';

const CHANGES = new URL('../corpus/changes/', import.meta.url);

/** Kinds that are labelled in the corpus; the first five open destructive-action gates. */
export const DESTRUCTIVE_KINDS = [
  'test_removed',
  'skip_added',
  'assertion_removed',
  'assertion_weakened',
  'export_removed',
];
export const SCORED_KINDS = [...DESTRUCTIVE_KINDS, 'laziness'];

/** Every change of the corpus, in id order. */
export function loadCorpus() {
  return readdirSync(CHANGES)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, CHANGES), 'utf8')));
}

/** A corpus change as `analyzeChange` takes it. */
export function changeInput(change) {
  return {
    files: change.files.map((file) => ({
      path: file.path,
      oldPath: file.oldPath ?? null,
      before: file.before,
      after: file.after,
    })),
  };
}

/** Core's destructive-action rules over the facts, mapped as the server maps them for /v1/analyze. */
export function destructiveTrigger(facts) {
  return evaluateTrigger('destructive_action', destructiveContextOfChange(facts)).trigger;
}

function tally() {
  return { tp: 0, fp: 0, fn: 0, tn: 0, falsePositives: [], misses: [] };
}

function count(t, id, expected, predicted) {
  if (expected && predicted) t.tp += 1;
  else if (predicted) {
    t.fp += 1;
    t.falsePositives.push(id);
  } else if (expected) {
    t.fn += 1;
    t.misses.push(id);
  } else t.tn += 1;
}

/** Precision and recall of a tally; null when nothing was predicted or nothing was expected. */
export function rates(t) {
  return {
    precision: t.tp + t.fp === 0 ? null : t.tp / (t.tp + t.fp),
    recall: t.tp + t.fn === 0 ? null : t.tp / (t.tp + t.fn),
  };
}

/**
 * Scores `outcomes` ({ change, result } per change) against the labels: one tally per kind, one for
 * "any destructive kind", one for the destructive-action verdict, one for the verdict or laziness, and one
 * for `gatehouse check` at its default settings (`--fail-on high`: it stops on a gate or a finding of
 * severity high or above).
 */
export function scoreCorpus(outcomes) {
  const kinds = Object.fromEntries(SCORED_KINDS.map((kind) => [kind, tally()]));
  const destructive = tally();
  const verdict = tally();
  const verdictOrLaziness = tally();
  const checkDefaults = tally();
  for (const { change, result } of outcomes) {
    const found = new Set(result.findings.map((finding) => finding.kind));
    const labelled = new Set(change.label.kinds);
    for (const kind of SCORED_KINDS) count(kinds[kind], change.id, labelled.has(kind), found.has(kind));
    const anyDestructive = (set) => DESTRUCTIVE_KINDS.some((kind) => set.has(kind));
    count(destructive, change.id, anyDestructive(labelled), anyDestructive(found));
    const triggered = destructiveTrigger(result.facts);
    count(verdict, change.id, change.label.cutsCorners, triggered);
    count(verdictOrLaziness, change.id, change.label.cutsCorners, triggered || found.has('laziness'));
    count(checkDefaults, change.id, change.label.cutsCorners, decideCheck(result, 'high').verdict !== 'pass');
  }
  return { kinds, destructive, verdict, verdictOrLaziness, checkDefaults };
}

/**
 * Per laziness pattern (`patterns`: the catalog's ids), at the level of a change: predicted when a
 * finding carries the pattern, expected when the label lists `laziness`.
 */
export function scorePatterns(outcomes, patterns) {
  const tallies = Object.fromEntries(patterns.map((pattern) => [pattern, tally()]));
  for (const { change, result } of outcomes) {
    const found = new Set(result.findings.map((finding) => finding.pattern));
    const labelled = change.label.kinds.includes('laziness');
    for (const pattern of patterns) count(tallies[pattern], change.id, labelled, found.has(pattern));
  }
  return tallies;
}
