import type { Tree } from 'web-tree-sitter';
import { addedOccurrences } from './added.js';
import { normalize } from './syntax.js';
import { isTestPath } from './test-files.js';
import { indexOf, type Located, statementsOf } from './tree-index.js';
import type { DetectorInput, LazinessHit } from './types.js';

/**
 * Comment directives that silence a type checker or linter. Coverage exclusions (`# pragma: no cover`,
 * `istanbul ignore`) hide no failure: what they leave out shows in the coverage delta.
 */
export const SUPPRESSION_COMMENT =
  /@ts-(ignore|expect-error|nocheck)|eslint-disable(-next-line|-line)?|biome-ignore|type:\s*ignore|\bnoqa\b|pylint:\s*disable|pyright:\s*ignore|\bnolint\b|NOSONAR|rubocop:\s*disable/;

/** Directives that silence the type checker itself; lint directives silence a style or a rule of thumb. */
const TYPE_CHECK = /^@ts-|^(type|pyright):\s*ignore$|^as (any|unknown as)$/;

/** Casts a test makes to build inputs and doubles; in production code they silence the type checker. */
const CASTS = new Set(['as any', 'as unknown as']);

interface Suppression {
  line: number;
  /** The kind of directive, e.g. `@ts-ignore`, `noqa`, `#![allow]`, `as any`. */
  kind: string;
  /** One rule it silences (`F401`, `clippy::needless_return`), or `*` for all. */
  code: string;
  /** The directive as written, for the message. */
  directive: string;
  /** The code it covers, so a kept directive on a moved line still matches. */
  target: string;
  scope: string;
  inTest: boolean;
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

/** The rule lists that follow a comment directive: `noqa: F401,E501`, `eslint-disable-next-line a, b`. */
const COMMENT_CODES: readonly [RegExp, RegExp][] = [
  [/^noqa$/, /^\s*:\s*([\w, ]+)/],
  [/^eslint-disable/, /^\s+([^*]+?)(?:\s+--.*)?(?:\*\/)?\s*$/],
  [/^pylint/, /^\s*=\s*([\w, -]+)/],
  [/^nolint$/, /^:([\w,-]+)/],
  [/^(type|pyright)/, /^\[([\w, -]+)\]/],
  [/^biome-ignore$/, /^\s+([\w/-]+)/],
  [/^rubocop/, /^\s+([\w/, ]+)/],
];

function split(list: string): string[] {
  const codes = list
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code.length > 0);
  return codes.length > 0 ? codes : ['*'];
}

/** What a node suppresses, rule by rule; null when it is no suppression. */
function directiveOf(found: Located): { kind: string; codes: string[] } | null {
  switch (found.type) {
    case 'comment':
    case 'line_comment':
    case 'block_comment': {
      const match = SUPPRESSION_COMMENT.exec(found.text);
      if (!match) return null;
      const kind = normalize(match[0]);
      const rest = found.text.slice(match.index + match[0].length);
      const list = COMMENT_CODES.find(([directive]) => directive.test(kind))?.[1].exec(rest)?.[1];
      return { kind, codes: list ? split(list) : ['*'] };
    }
    case 'as_expression':
      // Nested casts are separate nodes: only the one a directive ends is counted.
      if (/\bas\s+any$/.test(found.text)) return { kind: 'as any', codes: ['*'] };
      return /\bas\s+unknown\s+as\s+[\w.$<>[\]|&, ]+$/.test(found.text)
        ? { kind: 'as unknown as', codes: ['*'] }
        : null;
    case 'annotation':
    case 'marker_annotation': {
      if (!found.text.startsWith('@SuppressWarnings')) return null;
      const codes = [...found.text.matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? '');
      return { kind: '@SuppressWarnings', codes: codes.length > 0 ? codes : ['*'] };
    }
    default: {
      if (!/^#!?\[\s*allow\s*\(/.test(found.text)) return null;
      const list = found.text
        .replace(/\/\/[^\n]*/g, '')
        .replace(/^#!?\[\s*allow\s*\(([\s\S]*)\)\s*\]$/, '$1');
      return { kind: found.text.startsWith('#!') ? '#![allow]' : '#[allow]', codes: split(list) };
    }
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
    const written = normalize(
      found.type.endsWith('comment')
        ? found.text.replace(/^\/\/\s*|^#\s*|^\/\*\s*|\s*\*\/$/g, '')
        : found.text,
    );
    return directive.codes.map((code) => ({
      line: found.row + 1,
      kind: directive.kind,
      code,
      directive: found.type === 'as_expression' ? directive.kind : written,
      target,
      scope: found.scope,
      inTest: found.inTest,
    }));
  });
}

/** Type-check and lint suppressions, and `as any` casts outside tests, that the change adds, rule by rule. */
export function detectSuppressions({ file, context, baseConfidence }: DetectorInput): LazinessHit[] {
  const inTestFile = isTestPath(file.path);
  const after = suppressionsOf(context.after, file.after).filter(
    (s) => !(CASTS.has(s.kind) && (inTestFile || s.inTest)),
  );
  if (after.length === 0) return [];
  const added = addedOccurrences(suppressionsOf(context.before, file.before), after, [
    (s) => `${s.kind}|${s.code}|${s.target}`,
    (s) => `${s.kind}|${s.code}|${s.scope}`,
  ]);
  // One finding per directive, naming the rules it newly silences when others were there before.
  const byDirective = new Map<string, Suppression[]>();
  for (const s of added) {
    const key = `${s.line}|${s.directive}`;
    byDirective.set(key, [...(byDirective.get(key) ?? []), s]);
  }
  return [...byDirective.values()].map((group) => {
    const first = group[0] as Suppression;
    const whole =
      after.filter((s) => s.line === first.line && s.directive === first.directive).length === group.length;
    const what = whole
      ? `\`${first.directive.slice(0, 100)}\``
      : `\`${group.map((s) => s.code).join(', ')}\` to \`${first.kind}\``;
    const weaker = !TYPE_CHECK.test(first.kind) || inTestFile || first.inTest;
    return {
      pattern: 'lazy.suppression_added',
      ...(weaker ? { severity: 'medium' as const } : {}),
      confidence: baseConfidence,
      line: first.line,
      name: null,
      message: `adds ${what}${first.target ? ` over \`${first.target.slice(0, 80)}\`` : ''}`,
    };
  });
}
