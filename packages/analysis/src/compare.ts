import type { ExportedName } from './exports.js';
import type { Assertion, TestCase, TestScan } from './tests.js';
import { squeeze } from './tests.js';
import type { Finding } from './types.js';

/** One side of a file as the extractors saw it. */
export interface SideScan {
  tests: TestScan;
  exports: ExportedName[];
}

/** A changed file with both sides scanned, and how far its findings can be trusted. */
export interface ScannedFile {
  path: string;
  before: SideScan | null;
  after: SideScan | null;
  /** Whether the file holds tests (by its path or its content): its exports are not API. */
  isTestFile: boolean;
  /** Only the hunks of a diff are known. */
  partial: boolean;
  confidence: number;
}

interface Located {
  file: ScannedFile;
  test: TestCase;
}

const MIN_BODY = 16;
const SIMILAR = 0.7;
const SUITE_RENAME_SIMILAR = 0.4;
const TABLE_SIMILAR = 0.6;
/** Removed × added tests of one file above which the similarity pass is left out (it is quadratic). */
const MAX_SIMILARITY_PAIRS = 400;

/** `test_adds_two` and `TestAddsTwo` and `adds two` compare alike. */
export function normaliseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/^test/, '');
}

function confidenceOf(file: ScannedFile, ...tests: TestCase[]): number {
  return tests.some((test) => test.byLine) ? Math.min(file.confidence, 0.7) : file.confidence;
}

function finding(fields: Omit<Finding, 'confidence'> & { confidence: number }): Finding {
  return { ...fields, confidence: Math.round(fields.confidence * 100) / 100 };
}

/** Takes the first unused entry of a multimap bucket. */
function take<T>(index: Map<string, T[]>, key: string, used: Set<T>): T | undefined {
  const bucket = index.get(key);
  const found = bucket?.find((entry) => !used.has(entry));
  if (found) used.add(found);
  return found;
}

function indexBy<T>(entries: readonly T[], keyOf: (entry: T) => string): Map<string, T[]> {
  const index = new Map<string, T[]>();
  for (const entry of entries) {
    const key = keyOf(entry);
    if (key === '') continue;
    const bucket = index.get(key);
    if (bucket) bucket.push(entry);
    else index.set(key, [entry]);
  }
  return index;
}

function tokens(body: string): Set<string> {
  return new Set(body.split(/\W+/).filter(Boolean));
}

const ASSERTING =
  /^(expect\w*|assert\w*|to[A-Z]\w*|is[A-Z]\w*|should\w*|it|test|describe|require|equal|Equal|Errorf?|Fatalf?|fail)$/;

/** The code a body calls, assertion verbs left out: what a table's rows share with the tests they replace. */
function calledNames(body: string): Set<string> {
  const names = [...body.matchAll(/([A-Za-z_$][\w$]*)\s*[(!]/g)].map((match) => match[1] as string);
  return new Set(names.filter((name) => !ASSERTING.test(name)));
}

function similarity(a: string, b: string): number {
  return jaccard(tokens(a), tokens(b));
}

function jaccard(left: Set<string>, right: Set<string>): number {
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  const all = left.size + right.size - shared;
  return all === 0 ? 0 : shared / all;
}

/** Pairs the tests of one file's two sides: same key, then same name (a fragment may lack the suites). */
function pairInFile(
  file: ScannedFile,
  kept: [Located, Located][],
  removed: Located[],
  added: Located[],
): void {
  const before = file.before?.tests.tests ?? [];
  const after = (file.after?.tests.tests ?? []).map((test) => ({ file, test }));
  const used = new Set<Located>();
  const byKey = indexBy(after, (entry) => entry.test.key);
  const byName = indexBy(after, (entry) => entry.test.name);
  const unmatched: Located[] = [];
  for (const test of before) {
    const match = take(byKey, test.key, used);
    if (match) kept.push([{ file, test }, match]);
    else unmatched.push({ file, test });
  }
  for (const entry of unmatched) {
    const match = take(byName, entry.test.name, used);
    if (match) kept.push([entry, match]);
    else removed.push(entry);
  }
  for (const entry of after) if (!used.has(entry)) added.push(entry);
}

/** Assertions gone from a test that still exists, or swapped for ones that pin down less. */
export function compareAssertions(
  file: ScannedFile,
  before: readonly Assertion[],
  after: readonly Assertion[],
  options: { confidence: number; movedTo?: Map<string, number> },
): Finding[] {
  const { confidence, movedTo } = options;
  const left = new Map<string, number>();
  for (const assertion of after) left.set(assertion.text, (left.get(assertion.text) ?? 0) + 1);
  const removed: Assertion[] = [];
  for (const assertion of before) {
    const count = left.get(assertion.text) ?? 0;
    if (count > 0) left.set(assertion.text, count - 1);
    else removed.push(assertion);
  }
  const added = after.filter((assertion) => {
    const count = left.get(assertion.text) ?? 0;
    if (count > 0) left.set(assertion.text, count - 1);
    return count > 0;
  });
  const used = new Set<Assertion>();
  const bySubject = indexBy(added, (assertion) => assertion.subject);
  const findings: Finding[] = [];
  for (const old of removed) {
    const replacement = take(bySubject, old.subject, used) ?? added.find((assertion) => !used.has(assertion));
    if (replacement) used.add(replacement);
    const moved = movedTo?.get(old.text) ?? 0;
    if (!replacement && moved > 0) {
      // The assertion went to a test this change adds (a test split in two): moved, not removed.
      movedTo?.set(old.text, moved - 1);
    } else if (!replacement) {
      findings.push(
        finding({
          kind: 'assertion_removed',
          pattern: 'assertion.removed',
          severity: 'high',
          confidence,
          file: file.path,
          line: old.line,
          name: null,
          message: `Assertion \`${old.text}\` was removed from a test that still exists.`,
        }),
      );
    } else if (replacement.strength < old.strength) {
      findings.push(
        finding({
          kind: 'assertion_weakened',
          pattern: 'assertion.weakened',
          severity: 'medium',
          confidence,
          file: file.path,
          line: replacement.line,
          name: null,
          message: `Assertion \`${old.text}\` became the weaker \`${replacement.text}\`.`,
        }),
      );
    }
  }
  return findings;
}

const suiteOf = (key: string) => key.slice(0, Math.max(0, key.lastIndexOf(' > ')));

/** Above this many tests renamed in one suite, pairing them in order is a guess. */
const MAX_SUITE_RENAMES = 20;

/**
 * As many tests removed from a suite as added to it, in one file, in the same order and each pair
 * still alike: the tests were renamed (and reworded).
 */
function pairRenamedInSuite(
  lost: Located[],
  added: Located[],
  used: Set<Located>,
  replaced: [Located, Located][],
): void {
  const place = (entry: Located) =>
    suiteOf(entry.test.key) === '' ? '' : `${entry.file.path}\u0000${suiteOf(entry.test.key)}`;
  const removedBySuite = indexBy(lost, place);
  const addedBySuite = indexBy(
    added.filter((entry) => !used.has(entry)),
    place,
  );
  for (const [suite, removed] of removedBySuite) {
    const candidates = addedBySuite.get(suite) ?? [];
    if (removed.length !== candidates.length || removed.length > MAX_SUITE_RENAMES) continue;
    const pairs = removed.map((old, index) => [old, candidates[index]] as [Located, Located]);
    // Still renames only when something of each old body is left.
    if (!pairs.every(([old, next]) => similarity(old.test.body, next.test.body) >= SUITE_RENAME_SIMILAR))
      continue;
    for (const pair of pairs) {
      used.add(pair[1]);
      replaced.push(pair);
    }
  }
}

/** Tests folded into a new table-driven test of the same file (`it.each`, `parametrize`): several may become one. */
function pairIntoTables(
  lost: Located[],
  added: Located[],
  used: Set<Located>,
  replaced: [Located, Located][],
): void {
  const tables = added.filter((entry) => entry.test.parameterised);
  if (tables.length === 0) return;
  const paired = new Set(replaced.map(([old]) => old));
  for (const entry of lost) {
    if (paired.has(entry)) continue;
    const calls = calledNames(entry.test.body);
    if (calls.size === 0) continue;
    const table = tables.find(
      (other) => other.file === entry.file && jaccard(calls, calledNames(other.test.body)) >= TABLE_SIMILAR,
    );
    if (!table) continue;
    used.add(table);
    replaced.push([entry, table]);
  }
}

/** Removed tests that reappear (same name, same body, or a similar body in the same file) are replaced. */
function matchReplacements(removed: Located[], added: Located[], replaced: [Located, Located][]): Located[] {
  const used = new Set<Located>();
  const byName = indexBy(added, (entry) => normaliseName(entry.test.name));
  const bodyKey = (test: TestCase) => {
    const body = squeeze(test.body);
    return body.length >= MIN_BODY ? body : '';
  };
  const byBody = indexBy(added, (entry) => bodyKey(entry.test));
  const lost: Located[] = [];
  for (const entry of removed) {
    const match =
      take(byName, normaliseName(entry.test.name), used) ?? take(byBody, bodyKey(entry.test), used);
    if (match) replaced.push([entry, match]);
    else lost.push(entry);
  }
  pairRenamedInSuite(lost, added, used, replaced);
  pairIntoTables(lost, added, used, replaced);
  const paired = new Set(replaced.map(([old]) => old));
  const stillLost = lost.filter((entry) => !paired.has(entry));
  const addedByFile = indexBy(
    added.filter((entry) => !used.has(entry)),
    (entry) => entry.file.path,
  );
  const unmatched: Located[] = [];
  for (const entry of stillLost) {
    const candidates = (addedByFile.get(entry.file.path) ?? []).filter((other) => !used.has(other));
    const affordable = candidates.length * stillLost.length <= MAX_SIMILARITY_PAIRS;
    const match = affordable
      ? candidates.find((other) => similarity(entry.test.body, other.test.body) >= SIMILAR)
      : undefined;
    if (match) {
      used.add(match);
      replaced.push([entry, match]);
    } else unmatched.push(entry);
  }
  added.splice(0, added.length, ...added.filter((entry) => !used.has(entry)));
  return unmatched;
}

function testFindings(files: readonly ScannedFile[]): Finding[] {
  const kept: [Located, Located][] = [];
  const removed: Located[] = [];
  const added: Located[] = [];
  for (const file of files) pairInFile(file, kept, removed, added);
  const replaced: [Located, Located][] = [];
  const lost = matchReplacements(removed, added, replaced);
  const findings: Finding[] = [];
  for (const { file, test } of lost) {
    const message =
      file.after === null
        ? `Test "${test.key}" was removed with its file.`
        : `Test "${test.key}" was removed and not replaced.`;
    findings.push(
      finding({
        kind: 'test_removed',
        pattern: 'test.removed',
        severity: 'high',
        confidence: confidenceOf(file, test),
        file: file.path,
        line: test.line,
        name: test.key,
        message,
      }),
    );
  }
  for (const [old, next] of replaced) {
    const where = old.file === next.file ? '' : ` in ${next.file.path}`;
    const message = `Test "${old.test.key}" was moved or renamed to "${next.test.key}"${where}.`;
    findings.push(
      finding({
        kind: 'test_replaced',
        pattern: 'test.replaced',
        severity: 'low',
        confidence: confidenceOf(next.file, old.test, next.test),
        file: next.file.path,
        line: next.test.line,
        name: old.test.key,
        message,
      }),
    );
  }
  for (const { file, test } of added) {
    findings.push(
      finding({
        kind: 'test_added',
        pattern: 'test.added',
        severity: 'low',
        confidence: confidenceOf(file, test),
        file: file.path,
        line: test.line,
        name: test.key,
        message: `Test "${test.key}" was added.`,
      }),
    );
  }
  const movedTo = new Map<string, number>();
  for (const { test } of added) {
    for (const assertion of test.assertions)
      movedTo.set(assertion.text, (movedTo.get(assertion.text) ?? 0) + 1);
  }
  for (const [old, next] of [...kept, ...replaced]) {
    const confidence = confidenceOf(next.file, old.test, next.test);
    for (const item of compareAssertions(next.file, old.test.assertions, next.test.assertions, {
      confidence,
      movedTo,
    }))
      findings.push({ ...item, name: next.test.key });
  }
  for (const file of files) {
    if (!file.isTestFile || !file.before || !file.after || !comparesOrphans(file)) continue;
    const { orphanAssertions: before } = file.before.tests;
    findings.push(
      ...compareAssertions(file, before, file.after.tests.orphanAssertions, { confidence: file.confidence }),
    );
  }
  return findings;
}

/**
 * Assertions outside tests count in a diff's hunks (a test's head may lie outside them) and in test
 * helpers with no tests of their own; in a whole file with tests they sit in fixtures and go with them.
 */
function comparesOrphans(file: ScannedFile): boolean {
  if (file.partial) return true;
  return (file.before?.tests.tests.length ?? 0) === 0 && (file.after?.tests.tests.length ?? 0) === 0;
}

function skipKey(file: ScannedFile, scope: string): string {
  return scope === '' ? `${file.path}|` : `|${normaliseName(scope.split(/ > |\.|::|\//).pop() ?? scope)}`;
}

/** Skips present after and not before, counted across the change so a skipped test that moved is not new. */
function skipFindings(files: readonly ScannedFile[]): Finding[] {
  const before = new Map<string, number>();
  for (const file of files) {
    for (const skip of file.before?.tests.skips ?? [])
      before.set(skipKey(file, skip.scope), (before.get(skipKey(file, skip.scope)) ?? 0) + 1);
  }
  const findings: Finding[] = [];
  for (const file of files) {
    for (const skip of file.after?.tests.skips ?? []) {
      const key = skipKey(file, skip.scope);
      const count = before.get(key) ?? 0;
      if (count > 0) {
        before.set(key, count - 1);
        continue;
      }
      const what = skip.scope === '' ? 'the whole file' : `"${skip.scope}"`;
      findings.push(
        finding({
          kind: 'skip_added',
          pattern: 'test.skip_added',
          severity: 'high',
          confidence: file.confidence,
          file: file.path,
          line: skip.line,
          name: skip.scope || null,
          message: `\`${skip.kind}\` now skips ${what}.`,
        }),
      );
    }
  }
  return findings;
}

/** Public names gone from the change's non-test files and not declared again anywhere in it. */
function exportFindings(files: readonly ScannedFile[]): Finding[] {
  const keyOf = (file: ScannedFile, name: string) => (name === 'default' ? `default@${file.path}` : name);
  const after = new Set<string>();
  for (const file of files) for (const item of file.after?.exports ?? []) after.add(keyOf(file, item.name));
  const reported = new Set<string>();
  const findings: Finding[] = [];
  for (const file of files) {
    if (file.isTestFile) continue;
    for (const item of file.before?.exports ?? []) {
      const key = keyOf(file, item.name);
      if (after.has(key) || reported.has(key)) continue;
      reported.add(key);
      const severity = item.kind === 'class' ? 'high' : 'medium';
      findings.push(
        finding({
          kind: 'export_removed',
          pattern: item.kind === 'class' ? 'export.class_removed' : 'export.removed',
          severity,
          confidence: file.confidence,
          file: file.path,
          line: item.line,
          name: item.name,
          message: `Public ${item.kind} \`${item.name}\` was removed.`,
        }),
      );
    }
  }
  return findings;
}

/** The destructive findings of a change: tests, assertions, skips and public API compared before and after. */
export function compareChange(files: readonly ScannedFile[]): Finding[] {
  return [...testFindings(files), ...skipFindings(files), ...exportFindings(files)];
}
