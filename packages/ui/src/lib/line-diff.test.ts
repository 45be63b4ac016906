import { describe, expect, it } from 'vitest';
import { diffLines, withContext } from './line-diff.js';

const marks = (oldText: string, newText: string) =>
  diffLines(oldText, newText).map(
    (line) => `${{ same: ' ', removed: '-', added: '+' }[line.kind]}${line.text}`,
  );

describe('diffLines', () => {
  it('keeps common lines and marks changed ones, removals first', () => {
    expect(marks('a\nb\nc\n', 'a\nx\nc\n')).toEqual([' a', '-b', '+x', ' c']);
  });

  it('finds the longest common subsequence, not just a common prefix and suffix', () => {
    expect(marks('a\nb\nc\nd', 'b\nx\nd\ne')).toEqual(['-a', ' b', '-c', '+x', ' d', '+e']);
  });

  it('numbers lines in both texts', () => {
    const lines = diffLines('a\nb', 'b\nc');
    expect(lines.map((line) => [line.oldLine, line.newLine])).toEqual([
      [1, null],
      [2, 1],
      [null, 2],
    ]);
  });

  it('handles empty texts and identical texts', () => {
    expect(marks('', 'a\nb')).toEqual(['+a', '+b']);
    expect(marks('a', '')).toEqual(['-a']);
    expect(marks('same\ntext', 'same\ntext')).toEqual([' same', ' text']);
  });
});

describe('withContext', () => {
  it('keeps changed lines with their context and marks the gaps', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const next = old.replace('l10', 'changed');
    const shown = withContext(diffLines(old, next), 2);
    expect(shown.map((line) => (line === null ? '…' : line.text))).toEqual([
      '…',
      'l8',
      'l9',
      'l10',
      'changed',
      'l11',
      'l12',
      '…',
    ]);
  });
});
