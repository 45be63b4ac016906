import type { DiffLine } from '../../api/reviews.js';

/** One row of a side-by-side diff: the old side's line on the left, the new side's on the right. */
export interface SplitRow {
  old: DiffLine | null;
  new: DiffLine | null;
}

/** Pairs a hunk's lines side by side: context on both sides, each run of removals beside the additions after it. */
export function splitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as DiffLine;
    if (line.kind === 'context') {
      rows.push({ old: line, new: line });
      index++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (index < lines.length && lines[index]?.kind === 'del') removed.push(lines[index++] as DiffLine);
    while (index < lines.length && lines[index]?.kind === 'add') added.push(lines[index++] as DiffLine);
    for (let n = 0; n < Math.max(removed.length, added.length); n++) {
      rows.push({ old: removed[n] ?? null, new: added[n] ?? null });
    }
  }
  return rows;
}
