import { parseUnifiedDiff as parseDiff } from 'gatehouse-hitl-protocol/rules';
import { diffLines } from '../lib/line-diff.js';

/** One line of a diff as the diff view shows it. */
export interface DiffLine {
  kind: 'add' | 'remove' | 'context' | 'hunk' | 'meta' | 'skipped';
  text: string;
}

/** The changes of one file (path null when the diff did not name it). */
export interface FileDiff {
  path: string | null;
  lines: DiffLine[];
}

const CONTEXT = 3;

/** Reads a unified diff (`git diff` or `diff -u` output) into files and marked lines. */
export function parseUnifiedDiff(text: string): FileDiff[] {
  return parseDiff(text.replace(/\r\n/g, '\n'), { rows: true }).map((file) => ({
    path: file.newName ?? file.oldName,
    lines: file.rows.map((row) => ({ kind: row.kind === 'del' ? 'remove' : row.kind, text: row.text })),
  }));
}

const KIND = { same: 'context', removed: 'remove', added: 'add' } as const;

/** A line diff of two texts: unchanged lines as context, the rest marked removed or added. */
export function diffTexts(before: string, after: string): DiffLine[] {
  return diffLines(before, after).map((line) => ({ kind: KIND[line.kind], text: line.text }));
}

/** Keeps three lines of context around each change; longer unchanged runs become one "skipped" line. */
export function collapseContext(lines: readonly DiffLine[]): DiffLine[] {
  const changed = lines.map((line) => line.kind !== 'context');
  const near = (index: number) => {
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(lines.length - 1, index + CONTEXT); k++) {
      if (changed[k]) return true;
    }
    return false;
  };
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (line.kind !== 'context' || near(index)) {
      if (skipped > 0)
        out.push({ kind: 'skipped', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0)
    out.push({ kind: 'skipped', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
  return out;
}
