import { addedOccurrences } from './added.js';
import { commentBody, normalizeLine } from './syntax.js';
import { indexOf } from './tree-index.js';
import type { DetectorInput, LazinessHit } from './types.js';

/** A line that declares a test or asserts something, in any of the supported languages. */
export const TEST_CODE =
  /\b(it|test|describe)(\.\w+)?\s*\(|\bexpect\s*\(|\bassert\w*(!|\s*\(|\s+\S)|\bdef test_|\bfunc Test|@Test\b|#\[test\]|\bt\.(Error|Errorf|Fatal|Fatalf)\b|\brequire\.\w+\(/;

interface CommentLine {
  /** 0-based row in the new text. */
  row: number;
  text: string;
}

const LINE_COMMENT = /^\s*(\/\/+|#+|\/\*+|\*(?!\/)|--)\s?(.*?)(\*\/)?\s*$/;

type Side = 'before' | 'after';

function commentLines({ file, context }: DetectorInput, side: Side): CommentLine[] {
  const index = indexOf(context[side]);
  if (index) {
    return index.comments.flatMap((comment) =>
      commentBody(comment.text)
        .split('\n')
        .map((text, offset) => ({ row: comment.row + offset, text: normalizeLine(text) })),
    );
  }
  return (file[side] ?? '').split('\n').flatMap((line, row) => {
    const match = LINE_COMMENT.exec(line);
    return match ? [{ row, text: normalizeLine(match[2] ?? '') }] : [];
  });
}

/** One side's text with its comments blanked, so a block comment's lines don't count as code. */
function codeOf({ file, context }: DetectorInput, side: Side): string {
  const text = file[side] ?? '';
  const comments = indexOf(context[side])?.comments ?? [];
  if (comments.length === 0) return text;
  // One pass: the code between comments, and each comment's newlines only.
  const parts: string[] = [];
  let at = 0;
  for (const comment of comments) {
    parts.push(text.slice(at, comment.start), comment.text.replace(/[^\n]/g, ''));
    at = comment.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

function linesOf(text: string | null): string[] {
  return (text ?? '')
    .split('\n')
    .map(normalizeLine)
    .filter((line) => line.length > 0);
}

/** Tests and assertions the change removed whose code now sits in comments. */
export function detectCommentedOutTests(input: DetectorInput): LazinessHit[] {
  const { file, context, baseConfidence } = input;
  if (file.before === null) return [];
  const written = commentLines(input, 'after').filter((line) => line.text.length >= 6);
  if (!written.some((line) => TEST_CODE.test(line.text))) return [];
  // Only comment lines the change writes: a comment that was there before is not code commented out now.
  const comments = addedOccurrences(commentLines(input, 'before'), written, [(line) => line.text]);
  const removed = new Set(
    addedOccurrences(linesOf(codeOf(input, 'after')), linesOf(codeOf(input, 'before')), [(line) => line]),
  );
  const hits = comments.filter((line) => removed.has(line.text));
  if (!hits.some((line) => TEST_CODE.test(line.text))) return [];
  // One finding per run of adjacent commented-out lines.
  const blocks: CommentLine[][] = [];
  for (const line of hits.sort((a, b) => a.row - b.row)) {
    const last = blocks.at(-1);
    if (last && line.row - (last.at(-1)?.row ?? 0) <= 2) last.push(line);
    else blocks.push([line]);
  }
  const confidence = context.after ? baseConfidence : Math.min(0.6, baseConfidence);
  return blocks
    .filter((block) => block.some((line) => TEST_CODE.test(line.text)))
    .map((block) => {
      const first = block.find((line) => TEST_CODE.test(line.text)) ?? block[0];
      return {
        pattern: 'lazy.test_commented_out',
        confidence,
        line: (block[0]?.row ?? 0) + 1,
        name: null,
        message: `comments out ${block.length} line(s) of test code that the change removed, starting \`${first?.text.slice(0, 80)}\``,
      };
    });
}
