import type { FileChange, Finding } from 'gatehouse-hitl-analysis';

/** Lines of context each side of the finding's line. */
const CONTEXT = 3;
/** Beyond this many lines, each side, the changed middle of a file is not diffed line by line. */
const MAX_DIFFED = 600;
const MAX_LINE = 200;
/** Findings about what the old file had: their line is in `before`. */
const OLD_SIDE_KINDS = new Set(['test_removed', 'assertion_removed', 'export_removed']);
const OLD_SIDE_PATTERNS = new Set(['lazy.assertion_deleted_to_pass']);

type Op = { kind: ' ' | '-' | '+'; text: string; old: number | null; new: number | null };

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

/** A line diff of the middle of two files (their common start and end trimmed), by longest common subsequence. */
function middleDiff(before: string[], after: string[], offset: number): Op[] {
  const rows = before.length;
  const cols = after.length;
  if (rows > MAX_DIFFED || cols > MAX_DIFFED) {
    return [
      ...before.map((text, i) => ({ kind: '-' as const, text, old: offset + i + 1, new: null })),
      ...after.map((text, i) => ({ kind: '+' as const, text, old: null, new: offset + i + 1 })),
    ];
  }
  const table = Array.from({ length: rows + 1 }, () => new Uint16Array(cols + 1));
  for (let i = rows - 1; i >= 0; i--)
    for (let j = cols - 1; j >= 0; j--)
      (table[i] as Uint16Array)[j] =
        before[i] === after[j]
          ? ((table[i + 1] as Uint16Array)[j + 1] as number) + 1
          : Math.max((table[i + 1] as Uint16Array)[j] as number, (table[i] as Uint16Array)[j + 1] as number);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < rows || j < cols) {
    if (i < rows && j < cols && before[i] === after[j]) {
      ops.push({ kind: ' ', text: before[i] as string, old: offset + i + 1, new: offset + j + 1 });
      i++;
      j++;
    } else if (
      j >= cols ||
      (i < rows &&
        ((table[i + 1] as Uint16Array)[j] as number) >= ((table[i] as Uint16Array)[j + 1] as number))
    ) {
      ops.push({ kind: '-', text: before[i] as string, old: offset + i + 1, new: null });
      i++;
    } else {
      ops.push({ kind: '+', text: after[j] as string, old: null, new: offset + j + 1 });
      j++;
    }
  }
  return ops;
}

/** The whole file as diff operations: unchanged start, the diffed middle, unchanged end. */
function fileOps(file: FileChange): Op[] {
  const before = splitLines(file.before);
  const after = splitLines(file.after);
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const same = (from: number, to: number, shift: number): Op[] =>
    before
      .slice(from, to)
      .map((text, k) => ({ kind: ' ' as const, text, old: from + k + 1, new: from + k + 1 + shift }));
  return [
    ...same(0, start, 0),
    ...middleDiff(before.slice(start, before.length - end), after.slice(start, after.length - end), start),
    ...same(before.length - end, before.length, after.length - before.length),
  ];
}

function sideOf(finding: Pick<Finding, 'kind' | 'pattern'>, file: FileChange): 'old' | 'new' {
  if (file.after === null) return 'old';
  return OLD_SIDE_KINDS.has(finding.kind) || OLD_SIDE_PATTERNS.has(finding.pattern) ? 'old' : 'new';
}

/**
 * A small unified-diff hunk around a finding's line, from the files the server received with the
 * change: `@@ -12,4 +12,3 @@` and up to three lines of context each side. Null when the finding names
 * no line or the change did not include its file.
 */
export function findingHunk(
  finding: Pick<Finding, 'kind' | 'pattern' | 'file' | 'line'>,
  files: readonly FileChange[],
): string | null {
  const file = files.find((candidate) => candidate.path === finding.file);
  if (!file || finding.line === null || (file.before === null && file.after === null)) return null;
  const side = sideOf(finding, file);
  const ops = fileOps(file);
  const at = ops.findIndex((op) => op[side] === finding.line);
  if (at < 0) return null;
  const shown = ops.slice(Math.max(0, at - CONTEXT), at + CONTEXT + 1);
  const first = (key: 'old' | 'new') => shown.find((op) => op[key] !== null)?.[key] ?? 0;
  const count = (key: 'old' | 'new') => shown.filter((op) => op[key] !== null).length;
  const header = `@@ -${first('old')},${count('old')} +${first('new')},${count('new')} @@`;
  const lines = shown.map(
    (op) => `${op.kind}${op.text.length > MAX_LINE ? `${op.text.slice(0, MAX_LINE)}…` : op.text}`,
  );
  return [header, ...lines].join('\n');
}

/** The hunks of a whole file's diff: changed lines with up to three lines of context, at most `limit` lines. */
function fileHunks(ops: readonly Op[], limit: number): string[] {
  const near = ops.map((_, index) =>
    ops.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((op) => op.kind !== ' '),
  );
  const out: string[] = [];
  let index = 0;
  while (index < ops.length && out.length < limit) {
    if (!near[index]) {
      index++;
      continue;
    }
    let end = index;
    while (end < ops.length && near[end]) end++;
    const hunk = ops.slice(index, end);
    const first = (key: 'old' | 'new') => hunk.find((op) => op[key] !== null)?.[key] ?? 0;
    const count = (key: 'old' | 'new') => hunk.filter((op) => op[key] !== null).length;
    out.push(`@@ -${first('old')},${count('old')} +${first('new')},${count('new')} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text.slice(0, MAX_LINE)}`);
    index = end;
  }
  return out;
}

/** Keys of an action's arguments that already carry the change (a diff, or texts before and after). */
const SENT_CHANGE_KEYS = [
  'diff',
  'patch',
  'unifiedDiff',
  'unified_diff',
  'changes',
  'before',
  'old_string',
  'oldString',
  'old_str',
  'oldText',
  'original',
];
const MAX_CHANGED_FILES = 10;
const MAX_DIFF_LINES = 300;

/**
 * The change as the server received it, one unified diff per named file, for a gate's Diff when the
 * agent's action carries none (its arguments have no diff nor texts before and after).
 */
export function changesOf(
  files: readonly FileChange[],
  paths: readonly string[],
  args: Record<string, unknown> | undefined,
): { path: string; diff: string }[] {
  if (args && SENT_CHANGE_KEYS.some((key) => args[key] !== undefined && args[key] !== null)) return [];
  const named = new Set(paths);
  return files
    .filter((file) => named.has(file.path) && file.before !== file.after)
    .slice(0, MAX_CHANGED_FILES)
    .map((file) => {
      const hunks = fileHunks(fileOps(file), MAX_DIFF_LINES);
      const header = [
        `--- ${file.before === null ? '/dev/null' : `a/${file.oldPath ?? file.path}`}`,
        `+++ ${file.after === null ? '/dev/null' : `b/${file.path}`}`,
      ];
      return { path: file.path, diff: [...header, ...hunks].join('\n') };
    })
    .filter((change) => change.diff.includes('\n@@'));
}

/** Each finding with its hunk, for a gate's context. */
export function withHunks<T extends Pick<Finding, 'kind' | 'pattern' | 'file' | 'line'>>(
  findings: readonly T[],
  files: readonly FileChange[],
): (T & { hunk: string | null })[] {
  return findings.map((finding) => ({ ...finding, hunk: findingHunk(finding, files) }));
}
