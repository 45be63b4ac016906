import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageId } from '../types.js';
import { addedOccurrences } from './added.js';
import { blockStatements, functionsByName, isComment, lineOf, normalize, scopeName } from './syntax.js';
import type { DetectorInput, LazinessHit } from './types.js';

interface Swallow {
  node: Node;
  what: string;
  /** Lower when a comment explains the silence. */
  weight: number;
  scope: string;
}

function hasComment(block: Node): boolean {
  return block.namedChildren.some((child) => child !== null && isComment(child));
}

function emptyHandler(node: Node, block: Node | null, what: string): Swallow | null {
  if (!block) return null;
  const statements = blockStatements(block).filter(
    (s) => !['pass_statement'].includes(s.type) && s.text !== '...',
  );
  if (statements.length > 0) return null;
  return { node, what, weight: hasComment(block) ? 0.7 : 1, scope: scopeName(node) };
}

// A bare `return` may return a named `err` result, so only returns with values count.
const IGNORED_ERROR_RETURN =
  /^return\s+(nil|\w+\{\}|""|0|false|true)(\s*,\s*(nil|\w+\{\}|""|0|false|true))*$/;

function swallowsOf(tree: Tree | null, language: LanguageId): Swallow[] {
  if (!tree) return [];
  const found: Swallow[] = [];
  const push = (swallow: Swallow | null): void => {
    if (swallow) found.push(swallow);
  };
  const root = tree.rootNode;
  for (const clause of root.descendantsOfType('catch_clause')) {
    if (clause) push(emptyHandler(clause, clause.childForFieldName('body'), 'an empty catch'));
  }
  for (const clause of root.descendantsOfType('except_clause')) {
    const block = clause?.namedChildren.find((child) => child?.type === 'block') ?? null;
    if (clause)
      push(emptyHandler(clause, block, `\`${normalize(clause.text.split(':')[0] ?? 'except')}: pass\``));
  }
  for (const call of root.descendantsOfType('call_expression')) {
    const callee = call?.childForFieldName('function');
    const handler = call?.childForFieldName('arguments')?.namedChildren[0];
    if (
      !call ||
      callee?.type !== 'member_expression' ||
      callee.childForFieldName('property')?.text !== 'catch'
    )
      continue;
    if (!handler || !['arrow_function', 'function_expression'].includes(handler.type)) continue;
    const body = handler.childForFieldName('body');
    if (body?.type === 'statement_block') push(emptyHandler(call, body, '`.catch(() => {})`'));
    else if (body && /^(undefined|null|void 0)$/.test(body.text))
      push({ node: call, what: `\`.catch(() => ${body.text})\``, weight: 1, scope: scopeName(call) });
  }
  for (const statement of root.descendantsOfType([
    'assignment_statement',
    'let_declaration',
    'expression_statement',
  ])) {
    if (!statement) continue;
    const text = normalize(statement.text);
    if (language === 'go' && statement.type === 'assignment_statement' && /^_ = \w*[eE]rr\w*$/.test(text)) {
      push({ node: statement, what: `\`${text}\``, weight: 1, scope: scopeName(statement) });
    } else if (
      language === 'rust' &&
      statement.type === 'let_declaration' &&
      /^let _ = .*\)\s*;$/.test(text)
    ) {
      // `let _ =` is also how Rust drops values that are not Results, so it counts for less.
      push({ node: statement, what: '`let _ =` on a call', weight: 0.8, scope: scopeName(statement) });
    } else if (
      language === 'rust' &&
      statement.type === 'expression_statement' &&
      /\.ok\(\)\s*;$/.test(text)
    ) {
      push({ node: statement, what: '`.ok();`', weight: 1, scope: scopeName(statement) });
    }
  }
  for (const statement of root.descendantsOfType('if_statement')) {
    const condition = statement?.childForFieldName('condition');
    const consequence = statement?.childForFieldName('consequence');
    if (!statement || !consequence || !/^\w*[eE]rr\w* != nil$/.test(normalize(condition?.text ?? '')))
      continue;
    const body = blockStatements(consequence);
    const dropped =
      body.length === 0 || (body.length === 1 && IGNORED_ERROR_RETURN.test(normalize(body[0]?.text ?? '')));
    if (dropped)
      push({
        node: statement,
        what: `\`if ${condition?.text} { ${normalize(body[0]?.text ?? '')} }\` dropping the error`,
        weight: 1,
        scope: scopeName(statement),
      });
  }
  return found;
}

function countIn(node: Node, pattern: RegExp): number {
  return node.text.match(pattern)?.length ?? 0;
}

/** Rust functions that traded error handling (`?`, `Err(`, `match`) for `unwrap_or_default()`. */
function defaultsReplacingHandling({ context, baseConfidence }: DetectorInput): LazinessHit[] {
  if (context.language !== 'rust') return [];
  const before = functionsByName(context.before);
  const hits: LazinessHit[] = [];
  for (const [name, fn] of functionsByName(context.after)) {
    const old = before.get(name);
    if (!old) continue;
    const handled = /\?[;.)\s]|\bErr\(|\bmatch\b/g;
    const defaults = /\.unwrap_or_default\(\)/g;
    if (
      countIn(fn.body, defaults) > countIn(old.body, defaults) &&
      countIn(fn.body, handled) < countIn(old.body, handled)
    ) {
      const line = fn.body.text.split('\n').findIndex((text) => text.includes('unwrap_or_default'));
      hits.push({
        pattern: 'lazy.error_swallowed',
        confidence: baseConfidence * 0.8,
        line: lineOf(fn.body) + Math.max(0, line),
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
    swallowsOf(context.before, context.language),
    swallowsOf(context.after, context.language),
    [(s) => `${s.what}|${normalize(s.node.parent?.text ?? s.node.text)}`, (s) => `${s.what}|${s.scope}`],
  );
  const hits: LazinessHit[] = added.map((s) => ({
    pattern: 'lazy.error_swallowed',
    confidence: baseConfidence * s.weight,
    line: lineOf(s.node),
    name: s.scope === '<top>' ? null : s.scope,
    message: `adds ${s.what}, so the error is lost`,
  }));
  return [...hits, ...defaultsReplacingHandling(input)];
}
