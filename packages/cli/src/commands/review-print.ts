import type {
  FileDiff,
  ReviewComment,
  ReviewDocument,
  ReviewFile,
  ReviewVerdictDocument,
} from 'gatehouse-hitl-protocol';
import type { Env, Output } from '../command.js';
import { isoTime, printFields, printTable, terminalSafe } from '../output.js';

const COLOURS = { add: '\u001b[32m', del: '\u001b[31m', hunk: '\u001b[36m', file: '\u001b[1m' } as const;
const RESET = '\u001b[0m';

/** Colour on a terminal, unless NO_COLOR is set (https://no-color.org). */
export function useColour(out: Output, env: Env): boolean {
  return out.isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

function paint(colour: boolean, kind: keyof typeof COLOURS, text: string): string {
  return colour ? `${COLOURS[kind]}${text}${RESET}` : text;
}

/** One file's diff as unified text with old and new line numbers in the margin. */
export function diffLines(diff: FileDiff, colour: boolean): string[] {
  const from = diff.oldPath ?? diff.path;
  const name =
    from !== diff.path ? `${terminalSafe(from)} → ${terminalSafe(diff.path)}` : terminalSafe(diff.path);
  const lines = [paint(colour, 'file', `diff ${name} (${diff.status})`)];
  if (diff.binary) return [...lines, '  binary file: no lines shown'];
  for (const hunk of diff.hunks) {
    lines.push(paint(colour, 'hunk', terminalSafe(hunk.header)));
    for (const line of hunk.lines) {
      const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
      const old = line.oldLine === null ? '' : String(line.oldLine);
      const now = line.newLine === null ? '' : String(line.newLine);
      const text = `${old.padStart(5)} ${now.padStart(5)} │${mark}${terminalSafe(line.text)}`;
      lines.push(line.kind === 'context' ? text : paint(colour, line.kind, text));
    }
  }
  if (diff.truncated) lines.push('  … the diff was cut at the size limit');
  return lines;
}

function where(comment: ReviewComment): string {
  if (comment.path === null) return 'general';
  if (comment.line === null) return comment.path;
  return `${comment.path}:${comment.line}${comment.side === 'old' ? ' (old)' : ''}`;
}

function commentLine(comment: ReviewComment, indent: string): string {
  const flags = [comment.resolved ? 'resolved' : null, comment.outdated ? 'outdated' : null].filter(Boolean);
  const tail = flags.length > 0 ? ` [${flags.join(', ')}]` : '';
  return `${indent}${comment.id}  ${terminalSafe(comment.authorName)} on ${terminalSafe(where(comment))}${tail}: ${terminalSafe(comment.body)}`;
}

/** Comments as threads: each first comment, then its replies indented. */
export function commentThreads(comments: ReviewComment[]): string[] {
  const lines: string[] = [];
  for (const first of comments.filter((comment) => comment.parentId === null)) {
    lines.push(commentLine(first, '  '));
    for (const reply of comments.filter((comment) => comment.parentId === first.id))
      lines.push(commentLine(reply, '      ↳ '));
  }
  return lines;
}

export interface ReviewView {
  review: ReviewDocument;
  verdicts: ReviewVerdictDocument[];
  files: ReviewFile[];
  comments: ReviewComment[];
}

/** `gatehouse review show`: the review, its files with +/− counts, its comment threads and verdicts. */
export function printReview(out: Output, view: ReviewView): void {
  const { review } = view;
  printFields(out, [
    ['Review', review.id],
    ['Run', review.runId],
    ['Status', review.status],
    ['Branch', `${review.branch} (revision ${review.revision})`],
    ['Phase', `${review.phase} (${review.type})${review.jobComplete ? ', job complete' : ''}`],
    ['Gate', review.gateId ?? '-'],
    ['Base', review.baseCommit.slice(0, 12)],
    ['Head', review.headCommit.slice(0, 12)],
    ['Merged as', review.mergeCommit?.slice(0, 12)],
    ['Conflicts', review.conflicts.length > 0 ? review.conflicts.join(', ') : null],
    ['Updated', isoTime(review.updatedAt)],
  ]);
  out.write('\n');
  printTable(
    out,
    ['STATUS', '+', '-', 'FILE'],
    view.files.map((file) => [
      file.status,
      file.binary ? 'bin' : `+${file.added}`,
      file.binary ? '' : `-${file.removed}`,
      file.oldPath && file.oldPath !== file.path ? `${file.oldPath} → ${file.path}` : file.path,
    ]),
    'no files changed',
  );
  out.write(`\n${view.comments.length} comment(s)\n`);
  const threads = commentThreads(view.comments);
  if (threads.length > 0) out.write(`${threads.join('\n')}\n`);
  for (const verdict of view.verdicts) {
    out.write(
      `verdict: ${verdict.verdict} on ${terminalSafe(verdict.path ?? 'the whole review')} by ${terminalSafe(verdict.authorName)}\n`,
    );
  }
}
