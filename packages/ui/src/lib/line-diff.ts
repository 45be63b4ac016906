/** One line of a line diff: kept, removed (only in the old text) or added (only in the new text). */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** 1-based line number in the old text; null for added lines. */
  oldLine: number | null;
  /** 1-based line number in the new text; null for removed lines. */
  newLine: number | null;
}

/** Past this many LCS cells the middle is shown as removed then added, to keep the page responsive. */
const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Longest-common-subsequence table, from the end: cell (i, j) is the LCS length of a[i..] and b[j..]. */
function lcsTable(a: readonly string[], b: readonly string[]): Uint32Array {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  return table;
}

type Op = { kind: DiffLine['kind']; text: string };

function diffMiddle(a: readonly string[], b: readonly string[]): Op[] {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) {
    return [
      ...a.map((text) => ({ kind: 'removed' as const, text })),
      ...b.map((text) => ({ kind: 'added' as const, text })),
    ];
  }
  const table = lcsTable(a, b);
  const width = b.length + 1;
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: 'same', text: a[i] ?? '' });
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) {
      ops.push({ kind: 'removed', text: a[i] ?? '' });
      i += 1;
    } else {
      ops.push({ kind: 'added', text: b[j] ?? '' });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) ops.push({ kind: 'removed', text: a[i] ?? '' });
  for (; j < b.length; j += 1) ops.push({ kind: 'added', text: b[j] ?? '' });
  return ops;
}

/** A line diff of two texts by longest common subsequence; removals come before additions. */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const ops: Op[] = [
    ...a.slice(0, prefix).map((text) => ({ kind: 'same' as const, text })),
    ...diffMiddle(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
    ...a.slice(a.length - suffix).map((text) => ({ kind: 'same' as const, text })),
  ];
  let oldLine = 0;
  let newLine = 0;
  return ops.map((op) => {
    if (op.kind !== 'added') oldLine += 1;
    if (op.kind !== 'removed') newLine += 1;
    return {
      ...op,
      oldLine: op.kind === 'added' ? null : oldLine,
      newLine: op.kind === 'removed' ? null : newLine,
    };
  });
}

/** A diff cut down to the changed lines and `context` lines around each change; null marks a gap. */
export function withContext(lines: readonly DiffLine[], context = 3): (DiffLine | null)[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k += 1) {
      keep[k] = true;
    }
  });
  const out: (DiffLine | null)[] = [];
  lines.forEach((line, index) => {
    if (keep[index]) out.push(line);
    else if (out.at(-1) !== null) out.push(null);
  });
  return out;
}
