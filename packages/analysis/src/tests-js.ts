import type { Node } from 'web-tree-sitter';
import { jsStrength } from './assertion-strength.js';
import type { Assertion, RawScan } from './test-scan.js';
import { lineOf, normalise, squeeze, stringValue } from './test-scan.js';

const TESTS = new Set(['it', 'test', 'specify', 'xit', 'xtest', 'fit', 'bench']);
const SUITES = new Set(['describe', 'suite', 'context', 'xdescribe', 'fdescribe', 'xcontext']);
const SKIPPING = new Set(['skip', 'todo', 'skipIf', 'fails', 'fixme']);
const CONTEXT_SKIP = new Set(['this', 'ctx', 'context', 't', 'test']);
/** Assertions ava and tap hang on the test's own `t` (`t.is`, `t.equal`); `t.test`, `t.plan`, `t.end` are not. */
const T_ASSERTIONS = new Set([
  'is',
  'not',
  'deepEqual',
  'notDeepEqual',
  'like',
  'truthy',
  'falsy',
  'true',
  'false',
  'assert',
  'throws',
  'throwsAsync',
  'notThrows',
  'notThrowsAsync',
  'regex',
  'notRegex',
  'snapshot',
  'equal',
  'strictEqual',
  'notEqual',
  'same',
  'strictSame',
  'notSame',
  'ok',
  'notOk',
  'match',
  'notMatch',
  'has',
  'hasStrict',
  'error',
  'type',
  'doesNotThrow',
  'rejects',
  'resolves',
  'resolveMatch',
  'matchSnapshot',
]);

interface Chain {
  names: string[];
  /** The arguments of the first call of the chain: `expect(x)`'s `(x)`. */
  rootArgs: string;
  /** The arguments of the last call: `toBe(1)`'s `(1)`. */
  args: string;
}

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The end of the bracketed group or string literal that starts at `start` in `text`. */
function skipGroup(text: string, start: number): number {
  const stack: string[] = [];
  for (let i = start; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "'" || char === '"' || char === '`') {
      i++;
      while (i < text.length && text[i] !== char) i += text[i] === '\\' ? 2 : 1;
      if (stack.length === 0) return i + 1;
    } else if (CLOSE[char]) stack.push(CLOSE[char]);
    else if (char === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  return text.length;
}

/** The next character that is not white space, from `index` on. */
function nextSolid(text: string, index: number): number {
  let i = index;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  return i;
}

/**
 * `expect(a).not.toBe(1)` → names `expect, not, toBe`, root arguments `(a)`, arguments `(1)`, read
 * from the source at `start` up to where the chain ends: far cheaper than walking its nodes through
 * the WebAssembly boundary.
 */
function chainAt(text: string, start = 0): Chain & { end: number } {
  const names: string[] = [];
  let rootArgs: string | null = null;
  let args = '';
  const identifier = /[A-Za-z_$][\w$]*/y;
  let i = start;
  let linked = true;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '(' || char === '[' || char === '<') {
      const end = char === '<' ? text.indexOf('>', i) + 1 || text.length : skipGroup(text, i);
      if (char === '(') {
        args = text.slice(i, end);
        rootArgs ??= args;
      }
      i = end;
      linked = false;
    } else if (char === '.' || char === '?' || char === '!') {
      i++;
      linked = true;
    } else if (/\s/.test(char)) {
      const next = nextSolid(text, i);
      const following = text[next] ?? '';
      if (!linked && following !== '.' && following !== '?' && following !== '(') break;
      i = next;
    } else {
      identifier.lastIndex = i;
      const match = linked ? identifier.exec(text) : null;
      if (!match) break;
      names.push(match[0]);
      i += match[0].length;
      linked = false;
    }
  }
  return { names, rootArgs: rootArgs ?? '', args, end: i };
}

/** A chain read from a callee's own text (`it.skip`, `test.each(table)`). */
function chainOf(text: string): Chain {
  return chainAt(text);
}

const MAX_ASSERTION_CHARS = 2000;
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

/** The identifier a call starts with, read from the source. */
function baseAt(source: string, index: number): string {
  IDENTIFIER.lastIndex = index;
  return IDENTIFIER.exec(source)?.[0] ?? '';
}

const CONDITIONAL = /^[\w$]+\.(skipIf|runIf)\(/;
/** A helper that asserts, called on its own: `assertTotal(cart, 6)`. */
const ASSERT_HELPER = /^assert[A-Z_]/;
const SHOULD = /^[^;{}]*\.should\b/;

/** Whether a call starting with `base` can be a test, a suite, an assertion or a skip (read from the source, no node access). */
function isCandidate(base: string, lineText: string): boolean {
  if (TESTS.has(base) || SUITES.has(base) || CONTEXT_SKIP.has(base)) return true;
  return base.startsWith('expect') || base === 'assert' || ASSERT_HELPER.test(base) || SHOULD.test(lineText);
}

function isAssertion(names: string[]): boolean {
  const root = names[0] ?? '';
  if (root === 't' && names.length === 2) return T_ASSERTIONS.has(names[1] ?? '');
  if (names.length === 1 && ASSERT_HELPER.test(root)) return true;
  return root.startsWith('expect') || root === 'assert' || names[1] === 'assert' || names.includes('should');
}

function nameOf(call: Node): string | null {
  const first = call.childForFieldName('arguments')?.namedChildren[0];
  if (!first) return null;
  if (first.type === 'string' || first.type === 'template_string') return stringValue(first.text);
  return first.type === 'identifier' || first.type === 'member_expression' ? first.text : null;
}

function bodyOf(call: Node): string {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const fn = args.find((arg) => arg.type === 'arrow_function' || arg.type === 'function_expression');
  return normalise(
    fn?.childForFieldName('body')?.text ??
      args
        .slice(1)
        .map((arg) => arg.text)
        .join(','),
  );
}

interface Head {
  call: Node;
  names: string[];
  start: number;
  end: number;
  suite: boolean;
}

/** vitest, jest, mocha, ava, tap and node:test: `it`/`test` cases in `describe` suites, `expect`/`assert`/`should`/`t.is` assertions. */
export function jsTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  const source = root.text;
  // The root starts at the first token, not at 0, when the text opens with blank lines.
  const offset = root.startIndex;
  const heads: Head[] = [];
  const contextSkips: Head[] = [];
  let lastStart = -1;
  for (const call of root.descendantsOfType('call_expression')) {
    // Pre-order: a chain's outer call comes first; the inner ones (`expect(a)`) start at the same place.
    if (!call || call.startIndex === lastStart) continue;
    const start = call.startIndex - offset;
    const base = baseAt(source, start);
    // Enough of the source to see a `.should` chained on the next lines.
    const lineText = source.slice(start, start + 200);
    const conditional = CONDITIONAL.test(lineText);
    if (!isCandidate(base, lineText) && !conditional) continue;
    lastStart = call.startIndex;
    const callee = call.childForFieldName('function');
    // tap and node:test nest subtests on the test's `t`: `t.test('name', (t) => …)`.
    const subtest = base === 't' && callee?.text === 't.test';
    if (TESTS.has(base) || SUITES.has(base) || subtest) {
      const names = chainOf(callee?.text ?? base).names;
      heads.push({ call, names, start: call.startIndex, end: call.endIndex, suite: SUITES.has(base) });
      continue;
    }
    const read = chainAt(source, start);
    // A bracket the reader misjudged (say, in a regular expression) would run on: trust the node then.
    const text = read.end - start > MAX_ASSERTION_CHARS ? call.text : source.slice(start, read.end);
    const chain = text.length === read.end - start ? read : chainOf(text);
    if (conditional && !isAssertion(chain.names)) {
      // `const test = baseTest.skipIf(cond)`: the file's tests run through a name that may skip them all.
      scan.skips.push({ line: lineOf(call), scope: '', kind: chain.names.join('.') });
      continue;
    }
    if (isAssertion(chain.names)) scan.assertions.push(toAssertion(call, text, chain));
    else if (chain.names.at(-1) === 'skip' && chain.names.length === 2) {
      contextSkips.push({
        call,
        names: chain.names,
        start: call.startIndex,
        end: call.endIndex,
        suite: false,
      });
    }
  }
  const keyed = keyHeads(heads, scan);
  for (const skip of contextSkips) {
    const holder = keyed.findLast((head) => head.start <= skip.start && head.end >= skip.end);
    scan.skips.push({ line: lineOf(skip.call), scope: holder?.key ?? '', kind: 'context.skip' });
  }
  return scan;
}

const NOT_SKIPPING = /^(false|undefined|null|0|''|"")$/;

/** node:test and tap options that skip a test (`{ skip: true }`, `{ skip: 'why' }`, `{ todo }`): the option's name. */
function skipOption(call: Node): string | null {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  for (const options of args) {
    if (options?.type !== 'object') continue;
    for (const member of options.namedChildren) {
      if (member?.type === 'shorthand_property_identifier' && /^(skip|todo)$/.test(member.text))
        return member.text;
      const key = member?.type === 'pair' ? member.childForFieldName('key')?.text : undefined;
      const value = member?.childForFieldName('value')?.text ?? '';
      if (key && /^['"]?(skip|todo)['"]?$/.test(key) && !NOT_SKIPPING.test(value))
        return key.replace(/['"]/g, '');
    }
  }
  return null;
}

/** Names each head after its suites (a stack over heads in document order) and records tests and skips. */
function keyHeads(heads: Head[], scan: RawScan): (Head & { key: string })[] {
  const stack: { name: string; end: number }[] = [];
  const keyed: (Head & { key: string })[] = [];
  for (const head of heads) {
    while (stack.length > 0 && (stack.at(-1)?.end ?? 0) < head.start) stack.pop();
    const name = nameOf(head.call);
    if (name === null) continue;
    const key = [...stack.map((suite) => suite.name), name].join(' > ');
    keyed.push({ ...head, key });
    if (head.suite) stack.push({ name, end: head.end });
    const base = head.names[0] ?? '';
    const modifier = head.names.find((part) => SKIPPING.has(part));
    const option = skipOption(head.call);
    const skipped = base.startsWith('x') || modifier !== undefined || option !== null;
    const line = lineOf(head.call);
    const kind = modifier ? `${base}.${modifier}` : option ? `${base}({ ${option} })` : base;
    if (skipped) scan.skips.push({ line, scope: key, kind });
    if (head.suite) continue;
    scan.tests.push({
      name,
      key,
      line,
      endLine: head.call.endPosition.row + 1,
      skipped,
      body: bodyOf(head.call),
      parameterised: head.names.includes('each') || head.names.includes('for'),
    });
  }
  return keyed;
}

function toAssertion(call: Node, text: string, chain: Chain): Assertion {
  const matcher = chain.names.at(-1) ?? '';
  const root = chain.names[0];
  const single =
    chain.names.length === 1 || ((root === 'assert' || root === 't') && chain.rootArgs === chain.args);
  const subject = single ? (chain.args.slice(1).split(',')[0] ?? '') : chain.rootArgs;
  return {
    line: lineOf(call),
    text: normalise(text),
    subject: squeeze(subject),
    strength: jsStrength(matcher, chain.names.includes('not'), chain.args),
  };
}
