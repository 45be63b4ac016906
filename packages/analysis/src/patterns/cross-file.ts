import type { Finding } from '../types.js';
import {
  assertionsDeletedAcrossFiles,
  changedProductionFunctions,
  removedAssertions,
} from './assertion-deleted.js';
import { helperModules } from './expected-values.js';
import { addedLiteralReturns, hardcodedReturns } from './hardcoded-result.js';
import { escapeRegExp } from './syntax.js';
import { expectedValues } from './test-code.js';
import { isTestPath, stemOf, subjectOf } from './test-files.js';
import { functionsByName, indexOf } from './tree-index.js';
import type { ChangedFile, LazinessHit } from './types.js';

function directoryOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/**
 * Whether a test file tests a production file: by name (`cart.test.ts` and `cart.ts`), by importing
 * it, or, in Go, by sharing its package directory.
 */
export function isRelated(test: ChangedFile, production: ChangedFile): boolean {
  const stem = stemOf(production.file.path);
  if (subjectOf(test.file.path) === stem) return true;
  if (test.context.language === 'go')
    return directoryOf(test.file.path) === directoryOf(production.file.path);
  const text = `${test.file.before ?? ''}\n${test.file.after ?? ''}`;
  const name = escapeRegExp(stem);
  return new RegExp(
    `['"][^'"\\n]*\\b${name}(\\.\\w+)?['"]|\\b(from|import)\\s+[\\w.]*\\b${name}\\b|\\bnew\\s+${name}\\b`,
  ).test(text);
}

/** Functions the change adds anywhere: a test that now calls one may have moved its assertions there. */
function newFunctions(files: readonly ChangedFile[]): Set<string> {
  const names = new Set<string>();
  for (const { context } of files) {
    const before = functionsByName(indexOf(context.before));
    for (const fn of indexOf(context.after)?.functions ?? [])
      if (!before.has(fn.name) && fn.ownName) names.add(fn.ownName);
  }
  return names;
}

/**
 * The patterns that pair a test file with the production file it tests, over a whole change: a
 * literal returned where a related test expects it, and an assertion deleted while the code under
 * test changed. Complements `detectLaziness`, which sees one file at a time.
 */
export function crossFileHits(files: readonly ChangedFile[]): { file: ChangedFile; hit: LazinessHit }[] {
  const tests = files
    .filter((changed) => isTestPath(changed.file.path))
    .map((changed) => {
      const helpers = helperModules(changed, files);
      const imported = new Map(helpers.flatMap((helper) => [...helper.constants]));
      const expected = expectedValues(changed.context.after, changed.file.path, changed.file.after, imported);
      for (const helper of helpers) for (const value of helper.asserted) expected.add(value);
      return { changed, helpers, expected, removed: removedAssertions(changed) };
    });
  if (tests.length === 0) return [];
  const production = files
    .filter(
      (changed) =>
        !isTestPath(changed.file.path) &&
        changed.file.after !== null &&
        changed.file.before !== changed.file.after,
    )
    .map((changed) => ({ changed, returns: addedLiteralReturns(changed) }));
  const anyRemoved = tests.some((test) => test.removed.length > 0);
  const newHelpers = anyRemoved ? newFunctions(files) : new Set<string>();
  const changedFunctions = new Map<ChangedFile, Set<string>>();
  const hits: { file: ChangedFile; hit: LazinessHit }[] = [];
  for (const test of tests) {
    for (const code of production) {
      const related = isRelated(test.changed, code.changed);
      const reached =
        related ||
        test.helpers.some(
          (helper) => helper.changed !== code.changed && isRelated(helper.changed, code.changed),
        );
      if (reached && code.returns.length > 0 && test.expected.size > 0) {
        const base = code.changed.file.partial ? 0.75 : 0.9;
        for (const hit of hardcodedReturns(code.returns, test.expected, base, test.changed.file.path))
          hits.push({ file: code.changed, hit });
      }
      if (test.removed.length === 0 || code.changed.file.before === null) continue;
      let changed = changedFunctions.get(code.changed);
      if (!changed) {
        changed = changedProductionFunctions(code.changed);
        changedFunctions.set(code.changed, changed);
      }
      const deleted = assertionsDeletedAcrossFiles({
        removed: test.removed,
        changed,
        production: code.changed.file.path,
        related,
        newHelpers,
        baseConfidence: test.changed.file.partial ? 0.75 : 0.9,
      });
      for (const hit of deleted) hits.push({ file: test.changed, hit });
    }
  }
  return hits;
}

/** Keeps the surest of findings that name the same place: several files can point at one. */
export function dedupe(findings: readonly Finding[]): Finding[] {
  const unique = new Map<string, Finding>();
  for (const finding of findings) {
    const key = `${finding.pattern}|${finding.file}|${finding.line}|${finding.name}`;
    const kept = unique.get(key);
    if (!kept || kept.confidence < finding.confidence) unique.set(key, finding);
  }
  return [...unique.values()];
}
