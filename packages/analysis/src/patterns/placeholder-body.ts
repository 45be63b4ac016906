import type { Node } from 'web-tree-sitter';
import { blockStatements, commentBody, lineOf, normalize } from './syntax.js';
import { type Container, functionsByName, indexOf, type TreeIndex } from './tree-index.js';
import type { DetectorInput, LazinessHit } from './types.js';

type Placeholder = 'not_implemented' | 'conventional_stub' | 'empty' | 'trivial_return';

const NOT_IMPLEMENTED = /not\s*(yet\s*)?implemented|\btodo\b|\bfixme\b|unimplemented|\bstub\b/i;
const TODO_COMMENT = /\b(TODO|FIXME|XXX|HACK)\b/;
/** A comment standing in for code an editor left out: `# ... existing code ...`, `// rest of the function`. */
const ELIDED_CODE =
  /\.\.\.\s*(existing|rest of|remaining|previous|unchanged|same as before)\b|\b(existing|remaining|unchanged|original) (code|logic|implementation)\b|\brest of (the )?(code|function|method|implementation|logic)\b/i;
const TRIVIAL_RETURN =
  /^return\s*(null|undefined|None|nil(\s*,\s*nil)*|\{\s*\}|\[\s*\]|Ok\(\(\)\)|Default::default\(\))?\s*;?$/;

function isDocstring(node: Node): boolean {
  return (
    node.type === 'expression_statement' &&
    node.namedChildren.length === 1 &&
    node.namedChildren[0]?.type === 'string'
  );
}

/** What a one-statement body is a placeholder for, if it is one. */
function placeholderOf(fn: Container): Placeholder | null {
  // A placeholder is a line or two; a long body is real code, and listing its statements costs.
  if ((fn.body?.text.length ?? 0) > 400) return null;
  const statements = statementsIn(fn).filter((statement) => !isDocstring(statement));
  if (statements.length === 0) return 'empty';
  if (statements.length > 1) return null;
  const only = statements[0] as Node;
  const text = normalize(only.text);
  if (/^(todo|unimplemented)!/.test(text)) return 'not_implemented';
  if (/^(panic!?\(|throw |raise )/.test(text)) {
    // `NotImplementedError` itself is the convention, not a note that says "not implemented".
    if (NOT_IMPLEMENTED.test(text.replace(/NotImplemented(Error)?|UnsupportedOperationException/g, ''))) {
      return 'not_implemented';
    }
    if (/NotImplementedError|UnsupportedOperationException/.test(text)) return 'conventional_stub';
    return null;
  }
  if (text === 'pass' || text === '...') return 'empty';
  if (TRIVIAL_RETURN.test(text)) return 'trivial_return';
  return null;
}

function sameBody(a: Container, b: Container): boolean {
  const before = a.body?.text ?? '';
  const after = b.body?.text ?? '';
  return before === after || normalize(before) === normalize(after);
}

function statementsIn(fn: Container): Node[] {
  return fn.body ? blockStatements(fn.body) : [];
}

function isAbstract(fn: Container): boolean {
  const holder = fn.node.parent?.type === 'decorated_definition' ? fn.node.parent : null;
  if (holder?.namedChildren.some((child) => child?.type === 'decorator' && /abstract/.test(child.text)))
    return true;
  return /^\s*(export\s+)?(public\s+|protected\s+)?abstract\b/.test(fn.node.text);
}

function todoCommentsIn(fn: Container, index: TreeIndex): string[] {
  // Python puts a comment that opens a block beside the block, so look in the whole function.
  return index.comments
    .filter(
      (comment) =>
        comment.start >= fn.start &&
        comment.end <= fn.end &&
        (TODO_COMMENT.test(comment.text) || ELIDED_CODE.test(comment.text)),
    )
    .map((comment) => normalize(commentBody(comment.text)));
}

const MESSAGES: Record<Placeholder, string> = {
  not_implemented: 'now only says it is not implemented',
  conventional_stub: 'now only raises a not-implemented error',
  empty: 'is now empty',
  trivial_return: 'now only returns an empty value',
};

function bodyCounts(index: TreeIndex | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const fn of index?.functions ?? []) {
    const body = normalize(fn.body?.text ?? '');
    counts.set(body, (counts.get(body) ?? 0) + 1);
  }
  return counts;
}

/**
 * Hits on functions whose body the change adds: when after holds no more functions with that body
 * than before, the function was there already and only its name or place moved.
 */
function addedBodiesOnly(
  hits: readonly { hit: LazinessHit; fn: Container }[],
  before: TreeIndex | null,
  after: TreeIndex,
): LazinessHit[] {
  if (hits.length === 0) return [];
  const beforeCounts = bodyCounts(before);
  const afterCounts = bodyCounts(after);
  return hits
    .filter(({ fn }) => {
      const body = normalize(fn.body?.text ?? '');
      return (afterCounts.get(body) ?? 0) > (beforeCounts.get(body) ?? 0);
    })
    .map(({ hit }) => hit);
}

/** Functions whose body became a stub, or lost code to a TODO comment. */
export function detectPlaceholderBodies({ context, baseConfidence }: DetectorInput): LazinessHit[] {
  const beforeIndex = indexOf(context.before);
  const afterIndex = indexOf(context.after);
  if (!afterIndex) return [];
  const before = functionsByName(beforeIndex);
  const hits: { hit: LazinessHit; fn: Container }[] = [];
  for (const [name, fn] of functionsByName(afterIndex)) {
    const old = before.get(name);
    if (old && sameBody(old, fn)) continue;
    const placeholder = placeholderOf(fn);
    const hit = (confidence: number, message: string): void => {
      hits.push({
        fn,
        hit: {
          pattern: 'lazy.placeholder_body',
          confidence,
          line: lineOf(fn.body ?? fn.node),
          name,
          message: `${name} ${message}`,
        },
      });
    };
    if (old) {
      if (placeholderOf(old) !== null) continue;
      if (placeholder) {
        const weight = placeholder === 'trivial_return' ? 0.7 : 1;
        hit(baseConfidence * weight, `${MESSAGES[placeholder]}; it had a real body before`);
        continue;
      }
      const oldTodos = new Set(beforeIndex ? todoCommentsIn(old, beforeIndex) : []);
      const newTodos = todoCommentsIn(fn, afterIndex).filter((todo) => !oldTodos.has(todo));
      const lost = newTodos.length > 0 ? statementsIn(old).length - statementsIn(fn).length : 0;
      if (lost > 0) {
        hit(baseConfidence * 0.85, `lost ${lost} statement(s) to a "${newTodos[0]}" comment`);
      }
      continue;
    }
    if (isAbstract(fn)) continue;
    if (placeholder === 'not_implemented')
      hit(baseConfidence, `is added as a stub that ${MESSAGES[placeholder].replace('now only ', '')}`);
    // A base class's NotImplementedError or an immutable view's UnsupportedOperationException is often the design.
    if (placeholder === 'conventional_stub')
      hit(Math.min(0.6, baseConfidence * 0.7), 'is added as a stub that only raises a not-implemented error');
  }
  return addedBodiesOnly(hits, beforeIndex, afterIndex);
}
