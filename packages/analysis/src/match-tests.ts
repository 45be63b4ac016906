import type { ScannedFile } from './compare.js';
import type { Assertion, TestCase } from './test-scan.js';
import { squeeze } from './test-scan.js';

/** A test on one side of a changed file. */
export interface Located {
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

/** Takes the first unused entry of a multimap bucket. */
export function take<T>(index: Map<string, T[]>, key: string, used: Set<T>): T | undefined {
  const bucket = index.get(key);
  const found = bucket?.find((entry) => !used.has(entry));
  if (found) used.add(found);
  return found;
}

export function indexBy<T>(entries: readonly T[], keyOf: (entry: T) => string): Map<string, T[]> {
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
export function pairInFile(
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
export function matchReplacements(
  removed: Located[],
  added: Located[],
  replaced: [Located, Located][],
): Located[] {
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
  const moved = pairMovedAnywhere(unmatched, added, used, replaced);
  added.splice(0, added.length, ...added.filter((entry) => !used.has(entry)));
  return moved;
}

/** Alike enough to be one test moved to another file; less alike will do when the names share a word. */
const MOVED_SIMILAR = 0.7;
const MOVED_NAMED_SIMILAR = 0.45;

/** Whether a word of one name (4+ letters) appears in the other: `SelfclosingTextarea`, `selfClosingTextArea…`. */
function sharesNameWord(left: string, right: string): boolean {
  const [a, b] = [normaliseName(left), normaliseName(right)];
  const long = (name: string) => nameWords(name).filter((word) => word.length >= 4);
  return long(left).some((word) => b.includes(word)) || long(right).some((word) => a.includes(word));
}

/**
 * Tests moved to another file of the change (renamed on the way): an added test of another file whose body
 * is alike, or somewhat alike under a name sharing a word. Their assertions are still compared.
 */
function pairMovedAnywhere(
  lost: Located[],
  added: Located[],
  used: Set<Located>,
  replaced: [Located, Located][],
): Located[] {
  const candidates = added.filter((entry) => !used.has(entry));
  if (candidates.length * lost.length > MAX_SIMILARITY_PAIRS) return lost;
  return lost.filter((entry) => {
    const match = candidates.find((other) => {
      if (used.has(other) || other.file === entry.file) return false;
      const alike = similarity(entry.test.body, other.test.body);
      return (
        alike >= MOVED_SIMILAR ||
        (alike >= MOVED_NAMED_SIMILAR && sharesNameWord(entry.test.name, other.test.name))
      );
    });
    if (!match) return true;
    used.add(match);
    replaced.push([entry, match]);
    return false;
  });
}

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|\S/g;
const IDENTIFIER = /^[A-Za-z_$]/;

/** Whether `after` is `before` with names consistently renamed (the code under test renamed), nothing else. */
function isRenaming(before: string, after: string): boolean {
  const left = before.match(TOKEN) ?? [];
  const right = after.match(TOKEN) ?? [];
  if (left.length !== right.length) return false;
  const renamed = new Map<string, string>();
  const renamedFrom = new Map<string, string>();
  return left.every((token, index) => {
    const other = right[index] as string;
    if (token === other) return !renamed.has(token) || renamed.get(token) === other;
    if (!IDENTIFIER.test(token) || !IDENTIFIER.test(other)) return false;
    if ((renamed.get(token) ?? other) !== other || (renamedFrom.get(other) ?? token) !== token) return false;
    renamed.set(token, other);
    renamedFrom.set(other, token);
    return true;
  });
}

/** The words of a test's name (`testHostHeader`, `host header`), `test` left out. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && word !== 'test' && word !== 'tests');
}

/**
 * A test renamed into another one: its new name drops words of the old one, and some old assertion is
 * neither kept, nor moved to a test the change adds, nor replaced by a stronger one. What the old test
 * checked is then checked under neither name.
 */
export function isRewritten(old: TestCase, next: TestCase, movedTexts: ReadonlySet<string>): boolean {
  if (next.parameterised || isRenaming(old.body, next.body)) return false;
  const words = new Set(nameWords(next.name));
  if (nameWords(old.name).some((word) => words.has(word))) return false;
  const left = new Map<string, number>();
  for (const assertion of next.assertions) left.set(assertion.text, (left.get(assertion.text) ?? 0) + 1);
  const gone = old.assertions.filter((assertion) => {
    const count = left.get(assertion.text) ?? 0;
    if (count > 0) left.set(assertion.text, count - 1);
    return count === 0 && !movedTexts.has(assertion.text);
  });
  const added = next.assertions.filter((assertion) => {
    const count = left.get(assertion.text) ?? 0;
    if (count > 0) left.set(assertion.text, count - 1);
    return count > 0;
  });
  const used = new Set<Assertion>();
  return gone.some((assertion) => {
    const replacement =
      added.find((other) => !used.has(other) && other.subject === assertion.subject) ??
      added.find((other) => !used.has(other));
    if (replacement) used.add(replacement);
    return !replacement || replacement.strength <= assertion.strength;
  });
}
