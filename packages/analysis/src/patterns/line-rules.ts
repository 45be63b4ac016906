import type { Severity } from '../types.js';
import { addedOccurrences } from './added.js';
import { SUPPRESSION_COMMENT } from './suppression-added.js';
import { normalizeLine } from './syntax.js';
import type { DetectorInput, LazinessHit, LazinessPatternId } from './types.js';

/** Line rules for files no grammar parses: the same patterns, matched on added lines, at lower confidence. */
// On text alone a narrow or explained handler looks like a catch-all, so those rules stay medium.
const RULES: readonly { pattern: LazinessPatternId; test: RegExp; message: string; severity?: Severity }[] = [
  {
    pattern: 'lazy.placeholder_body',
    test: /\b(raise|throw)\b.*\b(NotImplemented\w*|not\s*implemented|TODO)\b|\b(todo|unimplemented)!\(|panic\(\s*["'](not implemented|TODO)/i,
    message: 'adds a not-implemented placeholder',
  },
  {
    pattern: 'lazy.suppression_added',
    test: SUPPRESSION_COMMENT,
    message: 'adds a check suppression',
    severity: 'medium',
  },
  {
    pattern: 'lazy.error_swallowed',
    test: /\bcatch\b[^{]*\{\s*\}|\bexcept\b[^:]*:\s*pass\b|\brescue\b\s*(=>\s*\w+\s*)?;?\s*(nil|end)\b|\.catch\(\s*\(\s*\)\s*=>\s*\{\s*\}\s*\)/,
    message: 'adds a handler that drops the error',
    severity: 'medium',
  },
];

/** The line-rule patterns, for files without a tree (`other` languages). */
export function detectByLines({ file, context }: DetectorInput): LazinessHit[] {
  if (context.after !== null) return [];
  const lines = (text: string | null) =>
    (text ?? '').split('\n').map((line, row) => ({ row, text: normalizeLine(line) }));
  const added = addedOccurrences(lines(file.before), lines(file.after), [(line) => line.text]);
  return added.flatMap((line) =>
    RULES.filter((rule) => rule.test.test(line.text)).map((rule) => ({
      pattern: rule.pattern,
      ...(rule.severity ? { severity: rule.severity } : {}),
      confidence: 0.55,
      line: line.row + 1,
      name: null,
      message: `${rule.message}: \`${line.text.slice(0, 80)}\``,
    })),
  );
}
