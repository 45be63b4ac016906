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

function stripPrefix(path: string): string | null {
  const clean = path.split('\t')[0]?.trim() ?? '';
  if (clean === '/dev/null' || clean === '') return null;
  return clean.replace(/^[ab]\//, '');
}

function lineOf(line: string): DiffLine {
  const first = line[0];
  if (line.startsWith('@@')) return { kind: 'hunk', text: line };
  if (first === '+') return { kind: 'add', text: line.slice(1) };
  if (first === '-') return { kind: 'remove', text: line.slice(1) };
  if (first === ' ') return { kind: 'context', text: line.slice(1) };
  if (line === '') return { kind: 'context', text: '' };
  return { kind: 'meta', text: line };
}

/** Reads a unified diff (`git diff` or `diff -u` output) into files and marked lines. */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const current = files.at(-1);
    if (line.startsWith('diff --git ')) {
      files.push({ path: stripPrefix(line.split(' ').at(-1) ?? ''), lines: [] });
    } else if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const path = stripPrefix((lines[i + 1] ?? '').slice(4)) ?? stripPrefix(line.slice(4));
      // After `diff --git` (and its index or mode lines) the file has already started.
      if (current?.lines.every((l) => l.kind === 'meta')) current.path ??= path;
      else files.push({ path, lines: [] });
      i++;
    } else if (current === undefined) {
      files.push({ path: null, lines: [lineOf(line)] });
    } else {
      current.lines.push(lineOf(line));
    }
  }
  return files;
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
