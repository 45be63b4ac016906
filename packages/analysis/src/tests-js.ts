import type { Node } from 'web-tree-sitter';
import { jsStrength } from './assertion-strength.js';
import type { Assertion, RawScan, SkipMarker } from './tests.js';
import { lineOf, normalise, squeeze, stringValue } from './tests.js';

const TESTS = new Set(['it', 'test', 'specify', 'xit', 'xtest', 'fit', 'bench']);
const SUITES = new Set(['describe', 'suite', 'context', 'xdescribe', 'fdescribe', 'xcontext']);
const SKIPPING = new Set(['skip', 'todo', 'skipIf', 'fails', 'fixme']);
const CONTEXT_SKIP = new Set(['this', 'ctx', 'context', 't', 'test']);

interface Chain {
  names: string[];
  /** The arguments of the innermost call of the chain: `expect(x)`'s `(x)`. */
  rootArgs: string;
}

/** `expect(a).not.toBe(1)` → names `expect, not, toBe`, root arguments `(a)`. */
function chainOf(call: Node): Chain {
  const names: string[] = [];
  let rootArgs = '';
  let node = call.childForFieldName('function');
  while (node) {
    if (node.type === 'member_expression') {
      names.unshift(node.childForFieldName('property')?.text ?? '');
      node = node.childForFieldName('object');
    } else if (node.type === 'call_expression') {
      rootArgs = node.childForFieldName('arguments')?.text ?? '';
      node = node.childForFieldName('function');
    } else {
      if (node.type === 'identifier' || node.type === 'this') names.unshift(node.text);
      break;
    }
  }
  return { names, rootArgs };
}

/** A call that is a link of a longer chain (`expect(a)` in `expect(a).toBe(1)`) is not the whole statement. */
function isChainLink(call: Node): boolean {
  const parent = call.parent;
  if (!parent) return false;
  if (parent.type === 'member_expression') return parent.childForFieldName('object')?.id === call.id;
  if (parent.type === 'call_expression') return parent.childForFieldName('function')?.id === call.id;
  return false;
}

function isAssertion(names: string[]): boolean {
  const root = names[0] ?? '';
  return root.startsWith('expect') || root === 'assert' || names[1] === 'assert' || names.includes('should');
}

function nameOf(call: Node): string | null {
  const first = call.childForFieldName('arguments')?.namedChildren[0];
  if (!first) return null;
  if (first.type === 'string' || first.type === 'template_string') return stringValue(first.text);
  return first.type === 'identifier' || first.type === 'member_expression' ? first.text : null;
}

/** The suites around a test call, outermost first. */
function suitePath(call: Node, suites: Map<number, string>): string[] {
  const path: string[] = [];
  for (let node = call.parent; node; node = node.parent) {
    const suite = suites.get(node.id);
    if (suite !== undefined) path.unshift(suite);
  }
  return path;
}

function bodyOf(call: Node): string {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const fn = args.find((arg) => arg.type === 'arrow_function' || arg.type === 'function_expression');
  return squeeze(
    fn?.childForFieldName('body')?.text ??
      args
        .slice(1)
        .map((arg) => arg.text)
        .join(','),
  );
}

/** vitest, jest and mocha: `it`/`test` cases in `describe` suites, `expect`/`assert`/`should` assertions. */
export function jsTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  const calls = root.descendantsOfType('call_expression');
  const heads: { call: Node; chain: Chain; name: string; suite: boolean }[] = [];
  const suites = new Map<number, string>();
  const contextSkips: Node[] = [];
  for (const call of calls) {
    if (!call || isChainLink(call)) continue;
    const chain = chainOf(call);
    const base = chain.names[0] ?? '';
    if (TESTS.has(base) || SUITES.has(base)) {
      const name = nameOf(call);
      if (name === null) continue;
      const suite = SUITES.has(base);
      heads.push({ call, chain, name, suite });
      if (suite) suites.set(call.id, name);
    } else if (isAssertion(chain.names)) {
      scan.assertions.push(toAssertion(call, chain));
    } else if (chain.names.at(-1) === 'skip' && CONTEXT_SKIP.has(base) && chain.names.length === 2) {
      contextSkips.push(call);
    }
  }
  const keys = new Map<number, string>();
  for (const { call, chain, name, suite } of heads) {
    const key = [...suitePath(call, suites), name].join(' > ');
    keys.set(call.id, key);
    const base = chain.names[0] ?? '';
    const modifier = chain.names.find((part) => SKIPPING.has(part));
    const skipped = base.startsWith('x') || modifier !== undefined;
    if (skipped)
      scan.skips.push({ line: lineOf(call), scope: key, kind: modifier ? `${base}.${modifier}` : base });
    if (suite) continue;
    const line = lineOf(call);
    scan.tests.push({ name, key, line, endLine: call.endPosition.row + 1, skipped, body: bodyOf(call) });
  }
  for (const call of contextSkips) scan.skips.push(contextSkip(call, keys));
  return scan;
}

function contextSkip(call: Node, keys: Map<number, string>): SkipMarker {
  let scope = '';
  for (let node = call.parent; node && scope === ''; node = node.parent) scope = keys.get(node.id) ?? '';
  return { line: lineOf(call), scope, kind: 'context.skip' };
}

function toAssertion(call: Node, chain: Chain): Assertion {
  const args = call.childForFieldName('arguments')?.text ?? '';
  const matcher = chain.names.at(-1) ?? '';
  const single = chain.names.length === 1 || (chain.names[0] === 'assert' && chain.rootArgs === '');
  const subject = single
    ? (call.childForFieldName('arguments')?.namedChildren[0]?.text ?? '')
    : chain.rootArgs;
  return {
    line: lineOf(call),
    text: normalise(call.text),
    subject: squeeze(subject),
    strength: jsStrength(matcher, chain.names.includes('not'), args),
  };
}
