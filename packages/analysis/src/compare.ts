import type { ExportedName } from './exports.js';
import {
  indexBy,
  isRewritten,
  type Located,
  matchReplacements,
  normaliseName,
  pairInFile,
  take,
} from './match-tests.js';
import type { Assertion, TestCase, TestScan } from './test-scan.js';
import type { Finding } from './types.js';

/** One side of a file as the extractors saw it. */
export interface SideScan {
  tests: TestScan;
  exports: ExportedName[];
}

/** A changed file with both sides scanned, and how far its findings can be trusted. */
export interface ScannedFile {
  path: string;
  /** Before a rename. */
  oldPath: string | null;
  before: SideScan | null;
  after: SideScan | null;
  /** Whether the file holds tests (by its path or its content): its exports are not API. */
  isTestFile: boolean;
  /** Whether the module was internal to its package before the change: its exports are not API. */
  isPrivateModule: boolean;
  /** A test file renamed where its runner no longer collects it: its tests count as removed. */
  testsDisabled: boolean;
  /** Only the hunks of a diff are known. */
  partial: boolean;
  confidence: number;
}

function confidenceOf(file: ScannedFile, ...tests: TestCase[]): number {
  return tests.some((test) => test.byLine) ? Math.min(file.confidence, 0.7) : file.confidence;
}

function finding(fields: Omit<Finding, 'confidence'> & { confidence: number }): Finding {
  return { ...fields, confidence: Math.round(fields.confidence * 100) / 100 };
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

function disabledBy(file: ScannedFile): string {
  return `${file.oldPath} was renamed to ${file.path}, which the test runner does not collect`;
}

/** A test file disabled by a rename whose tests are unknown (a diff with no hunks): one finding for the file. */
function disabledFileFindings(files: readonly ScannedFile[]): Finding[] {
  return files
    .filter((file) => file.testsDisabled && (file.before?.tests.tests.length ?? 0) === 0)
    .map((file) =>
      finding({
        kind: 'test_removed',
        pattern: 'test.removed',
        severity: 'high',
        confidence: file.confidence,
        file: file.path,
        line: null,
        name: null,
        message: `The tests of ${file.oldPath} no longer run: ${disabledBy(file)}.`,
      }),
    );
}

/**
 * A test moved or renamed; one that lost assertions on the way (an empty test under the old name)
 * replaces nothing, so it counts as removed.
 */
function replacementFinding(
  [old, next]: [Located, Located],
  lostAssertions: number,
  rewritten: boolean,
): Finding {
  const where = old.file === next.file ? '' : ` in ${next.file.path}`;
  const fields = {
    confidence: confidenceOf(next.file, old.test, next.test),
    file: next.file.path,
    line: next.test.line,
    name: old.test.key,
  };
  if (lostAssertions === 0 && !rewritten) {
    const message = `Test "${old.test.key}" was moved or renamed to "${next.test.key}"${where}.`;
    return finding({ ...fields, kind: 'test_replaced', pattern: 'test.replaced', severity: 'low', message });
  }
  const total = old.test.assertions.length;
  const message =
    lostAssertions === 0
      ? `Test "${old.test.key}" was replaced by "${next.test.key}"${where}, which checks something else: its name drops words of the old one and its assertions differ.`
      : `Test "${old.test.key}" was replaced by "${next.test.key}"${where}, which lost ${lostAssertions} of its ${total} assertion(s).`;
  return finding({ ...fields, kind: 'test_removed', pattern: 'test.removed', severity: 'high', message });
}

/** A test that keeps its name but checks nothing any more tests nothing: it counts as removed. */
function emptiedFinding(old: Located, next: Located): Finding {
  const count = old.test.assertions.length;
  return finding({
    kind: 'test_removed',
    pattern: 'test.removed',
    severity: 'high',
    confidence: confidenceOf(next.file, old.test, next.test),
    file: next.file.path,
    line: next.test.line,
    name: next.test.key,
    message: `Test "${next.test.key}" still exists but checks nothing: all ${count} of its assertion(s) were removed.`,
  });
}

function testFindings(files: readonly ScannedFile[]): Finding[] {
  const kept: [Located, Located][] = [];
  const removed: Located[] = [];
  const added: Located[] = [];
  for (const file of files) pairInFile(file, kept, removed, added);
  const replaced: [Located, Located][] = [];
  const lost = matchReplacements(removed, added, replaced);
  const findings: Finding[] = disabledFileFindings(files);
  for (const { file, test } of lost) {
    const message =
      file.after === null
        ? `Test "${test.key}" was removed with its file.`
        : file.testsDisabled
          ? `Test "${test.key}" no longer runs: ${disabledBy(file)}.`
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
  const movedTo = new Map<string, number>();
  for (const { test } of added) {
    for (const assertion of test.assertions)
      movedTo.set(assertion.text, (movedTo.get(assertion.text) ?? 0) + 1);
  }
  const movedTexts = new Set(movedTo.keys());
  const assertionFindings = [...kept, ...replaced].map(([old, next]) => {
    const confidence = confidenceOf(next.file, old.test, next.test);
    return compareAssertions(next.file, old.test.assertions, next.test.assertions, {
      confidence,
      movedTo,
    }).map((item) => ({ ...item, name: next.test.key }));
  });
  kept.forEach(([old, next], index) => {
    const removedHere = (assertionFindings[index] ?? []).some((item) => item.kind === 'assertion_removed');
    // A skipped one is reported as the skip it is.
    if (next.test.assertions.length === 0 && !next.test.skipped && removedHere)
      findings.push(emptiedFinding(old, next));
  });
  replaced.forEach((pair, index) => {
    const lostAssertions = (assertionFindings[kept.length + index] ?? []).filter(
      (item) => item.kind === 'assertion_removed',
    ).length;
    findings.push(
      replacementFinding(pair, lostAssertions, isRewritten(pair[0].test, pair[1].test, movedTexts)),
    );
  });
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
  findings.push(...assertionFindings.flat());
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

const SCOPE_SEPARATOR = / > |\.|::|\//;

function skipKey(file: ScannedFile, scope: string): string {
  return scope === '' ? `${file.path}|` : `|${normaliseName(scope.split(SCOPE_SEPARATOR).pop() ?? scope)}`;
}

/** Skips present after and not before, counted across the change so a skipped test that moved is not new. */
function skipFindings(files: readonly ScannedFile[]): Finding[] {
  const before = new Map<string, number>();
  for (const file of files) {
    for (const skip of file.before?.tests.skips ?? [])
      before.set(skipKey(file, skip.scope), (before.get(skipKey(file, skip.scope)) ?? 0) + 1);
  }
  // Tests and the suites around them, keyed as skips are.
  const testsBefore = new Set<string>();
  for (const file of files) {
    for (const test of file.before?.tests.tests ?? [])
      for (const part of test.key.split(SCOPE_SEPARATOR)) testsBefore.add(skipKey(file, part));
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
      // A new test that needs a newer interpreter or another platform runs wherever it can.
      if (skip.environmental && skip.scope !== '' && !testsBefore.has(key)) continue;
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

/**
 * Public names gone from the change's non-test files and not declared again anywhere in it, once each:
 * where the name was declared as a class rather than re-exported, when both are known.
 */
function exportFindings(files: readonly ScannedFile[]): Finding[] {
  const keyOf = (file: ScannedFile, name: string) => (name === 'default' ? `default@${file.path}` : name);
  const after = new Set<string>();
  for (const file of files) for (const item of file.after?.exports ?? []) after.add(keyOf(file, item.name));
  const removed = new Map<string, { file: ScannedFile; item: ExportedName }>();
  for (const file of files) {
    if (file.isTestFile || file.isPrivateModule) continue;
    for (const item of file.before?.exports ?? []) {
      const key = keyOf(file, item.name);
      const known = removed.get(key);
      if (after.has(key) || (known && (known.item.kind === 'class' || item.kind !== 'class'))) continue;
      removed.set(key, { file, item });
    }
  }
  return [...removed.values()].map(({ file, item }) =>
    finding({
      kind: 'export_removed',
      pattern: item.kind === 'class' ? 'export.class_removed' : 'export.removed',
      severity: item.kind === 'class' ? 'high' : 'medium',
      confidence: file.confidence,
      file: file.path,
      line: item.line,
      name: item.name,
      message: `Public ${item.kind} \`${item.name}\` was removed.`,
    }),
  );
}

/** The destructive findings of a change: tests, assertions, skips and public API compared before and after. */
export function compareChange(files: readonly ScannedFile[]): Finding[] {
  return [...testFindings(files), ...skipFindings(files), ...exportFindings(files)];
}
