import type { SearchChunkInput } from 'gatehouse-hitl-store';

/** A chunk grows to about this many characters before a paragraph or heading ends it. */
const TARGET_CHARS = 1500;
/** No chunk is longer than this; a longer paragraph is cut at line ends. */
const MAX_CHARS = 2000;

type Source = SearchChunkInput['source'];

interface Block {
  lineStart: number;
  lineEnd: number;
  text: string;
  heading: boolean;
}

/** Paragraphs (runs of non-blank lines) with their line range, from 1; NULs dropped. */
function blocksOf(text: string): Block[] {
  const lines = text.replace(/\0/g, '').split(/\r?\n/);
  const blocks: Block[] = [];
  let current: string[] = [];
  let start = 0;
  const flush = (end: number) => {
    if (current.length > 0) {
      blocks.push({
        lineStart: start,
        lineEnd: end,
        text: current.join('\n'),
        heading: /^#{1,6}\s/.test(current[0] ?? ''),
      });
    }
    current = [];
  };
  lines.forEach((line, index) => {
    const number = index + 1;
    if (line.trim() === '' || /^#{1,6}\s/.test(line)) flush(number - 1);
    if (line.trim() === '') return;
    if (current.length === 0) start = number;
    current.push(line);
    if (current.join('\n').length >= MAX_CHARS) flush(number);
  });
  flush(lines.length);
  return blocks;
}

/**
 * Splits a document into chunks of about 1–2 KB at headings and paragraphs, each with the line
 * range it came from.
 */
export function chunkDocument(input: {
  path: string;
  source: Source;
  ref: string;
  text: string;
}): SearchChunkInput[] {
  const chunks: SearchChunkInput[] = [];
  let pending: Block[] = [];
  const flush = () => {
    const first = pending[0];
    const last = pending[pending.length - 1];
    if (first !== undefined && last !== undefined) {
      chunks.push({
        path: input.path,
        source: input.source,
        ref: input.ref,
        lineStart: first.lineStart,
        lineEnd: last.lineEnd,
        content: pending.map((block) => block.text).join('\n\n'),
        embedding: null,
      });
    }
    pending = [];
  };
  for (const block of blocksOf(input.text)) {
    const size = pending.reduce((sum, item) => sum + item.text.length + 2, 0);
    if (pending.length > 0 && (block.heading || size + block.text.length > TARGET_CHARS)) flush();
    pending.push(block);
  }
  flush();
  return chunks;
}
