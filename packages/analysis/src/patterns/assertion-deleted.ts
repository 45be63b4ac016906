import type { Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { normalize } from './syntax.js';
import { isTestPath } from './test-files.js';
import { type Container, indexOf, statementsOf } from './tree-index.js';
import type { ChangedFile, DetectorInput, LazinessHit } from './types.js';

const ASSERTION =
  /^(expect\s*\(|assert|self\.assert|t\.(Error|Errorf|Fatal|Fatalf)\b|require\.\w|assert\.\w|verify\(|Assertions\.|.*\)\.should\b|if .*\{\s*t\.(Error|Fatal))/;

interface Assertion {
  /** The test it is in, by its functions and `describe`/`it` titles. */
  scope: string;
  text: string;
  fn: Container | null;
}

function assertionsOf(tree: Tree | null, path: string): Assertion[] {
  const wholeFile = isTestPath(path);
  return statementsOf(indexOf(tree), 'expression_statement', 'assert_statement', 'if_statement').flatMap(
    (found) => {
      if (!(wholeFile || found.inTest) || !ASSERTION.test(found.text)) return [];
      return [{ scope: found.testScope, text: normalize(found.text), fn: found.fn }];
    },
  );
}

export interface RemovedAssertion {
  scope: string;
  text: string;
  /** The test's text before, to see which functions it calls. */
  testText: string;
  /** The test's text after, to see whether a new helper took the assertion over. */
  afterText: string;
  /** Where the test starts after the change. */
  line: number;
}

/** Assertions removed from tests that are still there after the change (a removed test is another finding). */
export function removedAssertions({ file, context }: ChangedFile): RemovedAssertion[] {
  const afterIndex = indexOf(context.after);
  if (!context.before || !afterIndex) return [];
  const afterScopes = new Map<string, Container>();
  for (const fn of afterIndex.functions)
    if (!afterScopes.has(fn.testScope)) afterScopes.set(fn.testScope, fn);
  const before = assertionsOf(context.before, file.path);
  const after = assertionsOf(context.after, file.path);
  const key = (a: Assertion): string => `${a.scope}|${a.text}`;
  // An assertion rewritten in place (a new expected value) is not one deleted: count per test.
  const added = new Map<string, number>();
  for (const a of addedOccurrences(before, after, [key])) added.set(a.scope, (added.get(a.scope) ?? 0) + 1);
  const removed = addedOccurrences(after, before, [key]).filter((a) => {
    const rewritten = added.get(a.scope) ?? 0;
    if (rewritten > 0) added.set(a.scope, rewritten - 1);
    return rewritten === 0;
  });
  return removed.flatMap((a) => {
    const test = afterScopes.get(a.scope);
    return test
      ? [
          {
            scope: a.scope,
            text: a.text,
            testText: a.fn?.text ?? a.text,
            afterText: test.text,
            line: test.row + 1,
          },
        ]
      : [];
  });
}

/** Short names of the production functions whose body the change alters, adds or removes. */
export function changedProductionFunctions({ file, context }: ChangedFile): Set<string> {
  const changed = new Set<string>();
  if (isTestPath(file.path)) return changed;
  const bodies = (tree: Tree | null): Map<string, Container> => {
    const map = new Map<string, Container>();
    for (const fn of indexOf(tree)?.functions ?? [])
      if (!fn.inTest && !map.has(fn.name)) map.set(fn.name, fn);
    return map;
  };
  const before = bodies(context.before);
  const after = bodies(context.after);
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(name);
    const now = after.get(name);
    const oldText = old?.body?.text;
    const newText = now?.body?.text;
    if (
      oldText === undefined ||
      newText === undefined ||
      (oldText !== newText && normalize(oldText) !== normalize(newText))
    ) {
      changed.add((now ?? old)?.ownName ?? name);
    }
  }
  return changed;
}

function exercised(test: RemovedAssertion, changed: ReadonlySet<string>): string | null {
  for (const name of changed)
    if (new RegExp(`\\b${name.replace(/[^\w$]/g, '')}\\b`).test(test.testText)) return name;
  return null;
}

function hit(test: RemovedAssertion, confidence: number, where: string): LazinessHit {
  return {
    pattern: 'lazy.assertion_deleted_to_pass',
    confidence,
    line: test.line,
    name: test.scope,
    message: `${test.scope} lost \`${test.text.slice(0, 80)}\` while ${where} changed in the same change`,
  };
}

/** In one file: a test lost an assertion while a function it calls, in the same file, changed. */
export function detectAssertionsDeletedToPass({
  file,
  context,
  baseConfidence,
}: DetectorInput): LazinessHit[] {
  const changed = changedProductionFunctions({ file, context });
  if (changed.size === 0) return [];
  return removedAssertions({ file, context }).flatMap((test) => {
    const name = exercised(test, changed);
    return name ? [hit(test, baseConfidence, `\`${name}\``)] : [];
  });
}

/**
 * Across files: a test lost an assertion while production code it calls (`changed`) or the file it
 * tests (`related`) changed. A test that now calls a helper the change adds may have moved the
 * assertion there, so that case counts for less.
 */
export function assertionsDeletedAcrossFiles(options: {
  removed: readonly RemovedAssertion[];
  changed: ReadonlySet<string>;
  production: string;
  related: boolean;
  newHelpers: ReadonlySet<string>;
  baseConfidence: number;
}): LazinessHit[] {
  const { removed, changed, production, related, newHelpers, baseConfidence } = options;
  return removed.flatMap((assertion) => {
    const moved = [...newHelpers].some((helper) =>
      new RegExp(`\\b${helper.replace(/[^\w$]/g, '')}\\(`).test(assertion.afterText),
    );
    const weight = moved ? 0.7 : 1;
    const name = exercised(assertion, changed);
    if (name) return [hit(assertion, baseConfidence * weight, `\`${name}\` in ${production}`)];
    return related ? [hit(assertion, baseConfidence * 0.8 * weight, production)] : [];
  });
}
