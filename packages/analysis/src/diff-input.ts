import { type ParsedDiffFile, parseUnifiedDiff } from 'gatehouse-hitl-protocol/rules';
import type { FileChange } from './types.js';

/** Lines placed at their file line numbers, gaps left blank, so a parse of the text reports real lines. */
function placeLines(lines: Map<number, string>): string {
  let last = 0;
  for (const number of lines.keys()) last = Math.max(last, number);
  const out = new Array<string>(last).fill('');
  for (const [number, text] of lines) out[number - 1] = text;
  return out.join('\n');
}

function toFileChange(file: ParsedDiffFile): FileChange | null {
  if (file.binary) return null;
  const path = file.newName ?? file.oldName;
  if (path === null) return null;
  const oldLines = new Map<number, string>();
  const newLines = new Map<number, string>();
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) {
      if (line.oldLine !== null) oldLines.set(line.oldLine, line.text);
      if (line.newLine !== null) newLines.set(line.newLine, line.text);
    }
  }
  const renamed = file.oldName !== null && file.newName !== null && file.oldName !== file.newName;
  return {
    path,
    oldPath: renamed ? file.oldName : null,
    before: file.status === 'added' ? null : placeLines(oldLines),
    after: file.status === 'deleted' ? null : placeLines(newLines),
    partial: true,
  };
}

/**
 * Reads a unified diff (git's or plain `diff -u`, several files) into the files it changes. Whole
 * files are unknown, so `before`/`after` hold the old and new sides of the hunks at their own line
 * numbers (gaps blank) and `partial` is true. Binary files are left out.
 */
export function diffToChanges(diff: string): FileChange[] {
  return parseUnifiedDiff(diff.replace(/\r\n/g, '\n')).flatMap((file) => toFileChange(file) ?? []);
}
