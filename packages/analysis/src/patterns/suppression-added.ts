import type { Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { normalize } from './syntax.js';
import { indexOf, type Located, statementsOf } from './tree-index.js';
import type { DetectorInput, LazinessHit } from './types.js';

/** Comment directives that silence a type checker, linter or coverage tool. */
export const SUPPRESSION_COMMENT =
  /@ts-(ignore|expect-error|nocheck)|eslint-disable(-next-line|-line)?|biome-ignore|type:\s*ignore|\bnoqa\b|pylint:\s*disable|pyright:\s*ignore|\bnolint\b|NOSONAR|istanbul\s+ignore|c8\s+ignore|pragma:\s*no\s*cover|rubocop:\s*disable/;

interface Suppression {
  line: number;
  /** The directive itself, e.g. `@ts-ignore` or `as any`. */
  directive: string;
  /** The code it covers, so a kept directive on a moved line still matches. */
  target: string;
  scope: string;
}

/** The rest of a directive's line, or the next non-empty line when it stands alone. */
function coveredLine(lines: readonly string[], found: Located): string {
  const own = (lines[found.row] ?? '').replace(found.text.split('\n')[0] ?? '', '').trim();
  if (own) return normalize(own);
  for (let next = found.row + found.text.split('\n').length; next < lines.length; next++) {
    const text = lines[next]?.trim();
    if (text) return normalize(text);
  }
  return '';
}

function directiveOf(found: Located): string | null {
  switch (found.type) {
    case 'comment':
    case 'line_comment':
    case 'block_comment': {
      const directive = SUPPRESSION_COMMENT.exec(found.text)?.[0];
      return directive ? normalize(directive) : null;
    }
    case 'as_expression':
      // Nested casts are separate nodes: only the one a directive ends is counted.
      if (/\bas\s+any$/.test(found.text)) return 'as any';
      return /\bas\s+unknown\s+as\s+[\w.$<>[\]|&, ]+$/.test(found.text) ? 'as unknown as' : null;
    case 'annotation':
    case 'marker_annotation':
      return found.text.startsWith('@SuppressWarnings') ? normalize(found.text) : null;
    default:
      return /^#!?\[\s*allow\s*\(/.test(found.text) ? normalize(found.text) : null;
  }
}

function suppressionsOf(tree: Tree | null, text: string | null): Suppression[] {
  const index = indexOf(tree);
  if (!index || text === null) return [];
  const lines = text.split('\n');
  const candidates = [
    ...index.comments,
    ...statementsOf(
      index,
      'as_expression',
      'annotation',
      'marker_annotation',
      'attribute_item',
      'inner_attribute_item',
    ),
  ];
  return candidates.flatMap((found) => {
    const directive = directiveOf(found);
    if (!directive) return [];
    const target =
      found.type === 'as_expression' ? normalize(lines[found.row] ?? '') : coveredLine(lines, found);
    return [{ line: found.row + 1, directive, target, scope: found.scope }];
  });
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
    line: s.line,
    name: null,
    message: `adds \`${s.directive}\`${s.target ? ` over \`${s.target.slice(0, 80)}\`` : ''}`,
  }));
}
