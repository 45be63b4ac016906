import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageId } from '../types.js';
import { addedOccurrences } from './added.js';
import { blockStatements, isComment, lineOf, normalize } from './syntax.js';
import { isTestPath } from './test-files.js';
import { enclosingFunction, functionsByName, indexOf, type Located, statementsOf } from './tree-index.js';
import type { DetectorInput, LazinessHit } from './types.js';

interface Swallow {
  line: number;
  what: string;
  /** Lower when a comment explains the silence. */
  weight: number;
  /** A catch-all handler with nothing in it: the plainest way to lose an error. */
  emptyHandler: boolean;
  scope: string;
  /** The line it starts on and the one before, to tell apart identical handlers in one function. */
  context: string;
}

function hasComment(block: Node): boolean {
  return block.namedChildren.some((child) => child !== null && isComment(child));
}

function isEmptyHandler(block: Node | null): boolean {
  if (!block) return false;
  return blockStatements(block).every((s) => s.type === 'pass_statement' || s.text === '...');
}

// A bare `return` may return a named `err` result, so only returns with values count.
const IGNORED_ERROR_RETURN =
  /^return\s+(nil|\w+\{\}|""|0|false|true)(\s*,\s*(nil|\w+\{\}|""|0|false|true))*$/;
const PROMISE_CATCH =
  /\.catch\(\s*(?:async\s*)?(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(\{\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*\}|undefined|null|void 0)\s*\)|\.catch\(\s*function\s*\w*\s*\(\s*\w*\s*\)\s*\{\s*\}\s*\)/g;

const PREFIX: Record<string, RegExp> = {
  catch_clause: /^/,
  except_clause: /^/,
  assignment_statement: /^_\s*=/,
  let_declaration: /^let\s+_\s*=/,
  expression_statement: /\.ok\(\)\s*;$/,
  if_statement: /^if\s+\w*[eE]rr/,
};

// Errors while tearing down (closing, removing, stopping) are routinely ignored on purpose.
const CLEANUP_CALL =
  /\b(close|destroy|end|kill|unlink|rm|rmdir|rmSync|stop|disconnect|release|terminate|cancel|abort|unsubscribe|cleanup|shutdown|quit|dispose)\w*\([^()]*\)\s*;?\s*\}?\s*$/i;

/** The exception types a Python `except` or a Java `catch` names; empty for a bare or untyped handler. */
function caughtTypes(found: Located): string {
  if (found.type === 'except_clause') {
    return (found.text.split(':')[0] ?? '').replace(/^except\*?/, '').replace(/\bas\s+\w+\s*$/, '');
  }
  const parameter =
    found.node.namedChildren.find((child) => child?.type === 'catch_formal_parameter')?.text ?? '';
  return parameter.replace(/\bfinal\s+/, '').replace(/\s+\w+\s*$/, '');
}

/** A handler for named exceptions (`except ImportError`, `catch (NumberFormatException e)`), not for every error. */
function isNarrow(found: Located): boolean {
  const types = caughtTypes(found);
  return /\w/.test(types) && !/\b(Exception|BaseException|Throwable|RuntimeException|Error)\b/.test(types);
}

function isCleanup(text: string): boolean {
  return CLEANUP_CALL.test(text.trim());
}

/** What a statement drops, if it drops an error: `[what, weight]`. */
function swallowed(found: Located, language: LanguageId): [string, number] | null {
  // Most statements are none of these: look at the text only when its start says it may be.
  const text = PREFIX[found.type]?.test(found.text) ? normalize(found.text) : '';
  switch (found.type) {
    case 'catch_clause': {
      const body = found.node.childForFieldName('body');
      if (!isEmptyHandler(body)) return null;
      const tried = found.node.parent?.childForFieldName('body');
      const weight =
        (body && hasComment(body) ? 0.7 : 1) *
        (tried && isCleanup(tried.text) ? 0.7 : 1) *
        (isNarrow(found) ? 0.7 : 1);
      return ['an empty catch', weight];
    }
    case 'except_clause': {
      const body = found.node.namedChildren.find((child) => child?.type === 'block') ?? null;
      const head = `\`${normalize(found.text.split(':')[0] ?? 'except')}: pass\``;
      return isEmptyHandler(body)
        ? // Python's grammar puts a comment before the first statement beside the block, not in it.
          [
            head,
            (hasComment(found.node) || (body && hasComment(body)) ? 0.7 : 1) * (isNarrow(found) ? 0.7 : 1),
          ]
        : null;
    }
    case 'assignment_statement':
      return language === 'go' && /^_ = \w*[eE]rr\w*$/.test(text) ? [`\`${text}\``, 1] : null;
    case 'let_declaration':
      // `let _ =` is also how Rust drops values that are not Results, so it counts for less.
      return language === 'rust' && /^let _ = .*\)\s*;$/.test(text) ? ['`let _ =` on a call', 0.8] : null;
    case 'expression_statement':
      return language === 'rust' && /\.ok\(\)\s*;$/.test(text) ? ['`.ok();`', 1] : null;
    case 'if_statement': {
      const condition = /^if (\w*[eE]rr\w* != nil) \{/.exec(text)?.[1];
      const consequence = condition && language === 'go' ? found.node.childForFieldName('consequence') : null;
      if (!consequence) return null;
      const body = blockStatements(consequence);
      const only = normalize(body[0]?.text ?? '');
      const what = `\`if ${condition} { ${only} }\` dropping the error`;
      if (body.length === 0 || (body.length === 1 && IGNORED_ERROR_RETURN.test(only))) return [what, 1];
      // `return cfg, nil`: a value may be a deliberate fallback, so it counts for a little less.
      const variable = (condition ?? '').split(' ')[0] ?? '';
      const nilError = /^return\s.+,\s*nil$/.test(only) && !new RegExp(`\\b${variable}\\b`).test(only);
      return body.length === 1 && nilError ? [what, 0.85] : null;
    }
    default:
      return null;
  }
}

function swallowsOf(tree: Tree | null, text: string | null, language: LanguageId): Swallow[] {
  const index = indexOf(tree);
  if (!index || text === null) return [];
  const lines = text.split('\n');
  const contextOf = (row: number): string => normalize(`${lines[row - 1] ?? ''} ${lines[row] ?? ''}`);
  const found: Swallow[] = [];
  const types = [
    'catch_clause',
    'except_clause',
    'assignment_statement',
    'let_declaration',
    'expression_statement',
    'if_statement',
  ];
  for (const statement of statementsOf(index, ...types)) {
    const hit = swallowed(statement, language);
    if (hit) {
      const [what, weight] = hit;
      found.push({
        line: statement.row + 1,
        what,
        weight,
        emptyHandler: statement.type === 'catch_clause' || statement.type === 'except_clause',
        scope: statement.scope,
        context: contextOf(statement.row),
      });
    }
  }
  if (language === 'typescript' || language === 'tsx' || language === 'javascript') {
    for (const match of text.matchAll(PROMISE_CATCH)) {
      const row = text.slice(0, match.index).split('\n').length - 1;
      const call = text.slice(Math.max(0, match.index - 80), match.index);
      const weight = (/\/[/*]/.test(match[0]) ? 0.7 : 1) * (isCleanup(call) ? 0.7 : 1);
      const what = `\`.catch(() => ${match[1]?.startsWith('{') ? '{}' : (match[1] ?? '{}')})\``;
      found.push({
        line: row + 1,
        what,
        weight,
        emptyHandler: true,
        scope: enclosingFunction(index, match.index)?.name ?? '<top>',
        context: contextOf(row),
      });
    }
  }
  return found;
}

function countIn(node: Node | null, pattern: RegExp): number {
  return node?.text.match(pattern)?.length ?? 0;
}

/** Rust functions that traded error handling (`?`, `Err(`, `match`) for `unwrap_or_default()`. */
function defaultsReplacingHandling({ context, baseConfidence }: DetectorInput): LazinessHit[] {
  if (context.language !== 'rust') return [];
  const before = functionsByName(indexOf(context.before));
  const hits: LazinessHit[] = [];
  for (const [name, fn] of functionsByName(indexOf(context.after))) {
    const old = before.get(name);
    if (!old) continue;
    const handled = /\?[;.)\s]|\bErr\(|\bmatch\b/g;
    const defaults = /\.unwrap_or_default\(\)/g;
    if (
      countIn(fn.body, defaults) > countIn(old.body, defaults) &&
      countIn(fn.body, handled) < countIn(old.body, handled)
    ) {
      const line = (fn.body?.text ?? '').split('\n').findIndex((text) => text.includes('unwrap_or_default'));
      hits.push({
        pattern: 'lazy.error_swallowed',
        severity: 'medium',
        confidence: baseConfidence * 0.8,
        line: lineOf(fn.body ?? fn.node) + Math.max(0, line),
        name,
        message: `${name} now falls back to unwrap_or_default() where it handled the error`,
      });
    }
  }
  return hits;
}

/** Errors caught and dropped that the change adds. */
export function detectSwallowedErrors(input: DetectorInput): LazinessHit[] {
  const { context, baseConfidence } = input;
  const added = addedOccurrences(
    swallowsOf(context.before, input.file.before, context.language),
    swallowsOf(context.after, input.file.after, context.language),
    [
      (s) => `${s.what}|${s.scope}|${s.context}`,
      (s) => `${s.what}|${s.scope}`,
      (s) => `${s.what}|${s.context}`,
    ],
  );
  const inTestFile = isTestPath(input.file.path);
  // Narrow, commented or clean-up handlers, Go and Rust forms and tests' handlers are often on purpose.
  const isWeaker = (s: Swallow) => !s.emptyHandler || s.weight < 1 || inTestFile;
  const hits: LazinessHit[] = added.map((s) => ({
    pattern: 'lazy.error_swallowed',
    ...(isWeaker(s) ? { severity: 'medium' as const } : {}),
    confidence: baseConfidence * s.weight,
    line: s.line,
    name: s.scope === '<top>' ? null : s.scope,
    message: `adds ${s.what}, so the error is lost`,
  }));
  return [...hits, ...defaultsReplacingHandling(input)];
}
