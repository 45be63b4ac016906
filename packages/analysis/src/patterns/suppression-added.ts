import type { Node, Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { commentsOf, lineOf, normalize, scopeName } from './syntax.js';
import type { DetectorInput, LazinessHit } from './types.js';

/** Comment directives that silence a type checker, linter or coverage tool. */
export const SUPPRESSION_COMMENT =
  /@ts-(ignore|expect-error|nocheck)|eslint-disable(-next-line|-line)?|biome-ignore|type:\s*ignore|\bnoqa\b|pylint:\s*disable|pyright:\s*ignore|\bnolint\b|NOSONAR|istanbul\s+ignore|c8\s+ignore|pragma:\s*no\s*cover|rubocop:\s*disable/;

interface Suppression {
  node: Node;
  /** The directive itself, e.g. `@ts-ignore` or `as any`. */
  directive: string;
  /** The code it covers, so a kept directive on a moved line still matches. */
  target: string;
  scope: string;
}

function coveredLine(lines: readonly string[], row: number, node: Node): string {
  const own = (lines[row] ?? '').replace(node.text.split('\n')[0] ?? '', '').trim();
  if (own) return normalize(own);
  for (let next = node.endPosition.row + 1; next < lines.length; next++) {
    const text = lines[next]?.trim();
    if (text) return normalize(text);
  }
  return '';
}

function castDirective(node: Node): string | null {
  const type = node.namedChildren[1];
  const inner = node.namedChildren[0];
  if (type?.text === 'any') return 'as any';
  if (inner?.type === 'as_expression' && inner.namedChildren[1]?.text === 'unknown') return 'as unknown as';
  return null;
}

function suppressionsOf(tree: Tree | null, text: string | null): Suppression[] {
  if (!tree || text === null) return [];
  const lines = text.split('\n');
  const found: Suppression[] = [];
  for (const comment of commentsOf(tree)) {
    const directive = SUPPRESSION_COMMENT.exec(comment.text)?.[0];
    if (!directive) continue;
    const target = coveredLine(lines, comment.startPosition.row, comment);
    found.push({ node: comment, directive: normalize(directive), target, scope: scopeName(comment) });
  }
  const statementOf = (node: Node): string => {
    let up: Node = node;
    while (up.parent && !/statement|declaration|item/.test(up.type)) up = up.parent;
    return normalize(up.text);
  };
  for (const cast of tree.rootNode.descendantsOfType('as_expression')) {
    if (!cast || cast.parent?.type === 'as_expression') continue;
    const directive = castDirective(cast);
    if (directive) found.push({ node: cast, directive, target: statementOf(cast), scope: scopeName(cast) });
  }
  for (const annotation of tree.rootNode.descendantsOfType(['annotation', 'marker_annotation'])) {
    if (annotation?.childForFieldName('name')?.text !== 'SuppressWarnings') continue;
    const holder = annotation.parent?.parent;
    const target = holder ? normalize(holder.text.replace(annotation.text, '')).slice(0, 200) : '';
    found.push({
      node: annotation,
      directive: normalize(annotation.text),
      target,
      scope: scopeName(annotation),
    });
  }
  for (const attribute of tree.rootNode.descendantsOfType(['attribute_item', 'inner_attribute_item'])) {
    if (!attribute || !/^#!?\[\s*allow\s*\(/.test(attribute.text)) continue;
    const target = coveredLine(lines, attribute.startPosition.row, attribute);
    found.push({
      node: attribute,
      directive: normalize(attribute.text),
      target,
      scope: scopeName(attribute),
    });
  }
  return found;
}

/** Type-check, lint and coverage suppressions, and `as any` casts, that the change adds. */
export function detectSuppressions({ file, context, baseConfidence }: DetectorInput): LazinessHit[] {
  const added = addedOccurrences(
    suppressionsOf(context.before, file.before),
    suppressionsOf(context.after, file.after),
    [(s) => `${s.directive}|${s.target}`, (s) => `${s.directive}|${s.scope}`],
  );
  return added.map((s) => ({
    pattern: 'lazy.suppression_added',
    confidence: baseConfidence,
    line: lineOf(s.node),
    name: null,
    message: `adds \`${s.directive}\`${s.target ? ` over \`${s.target.slice(0, 80)}\`` : ''}`,
  }));
}
