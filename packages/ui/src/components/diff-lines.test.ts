import { describe, expect, it } from 'vitest';
import { collapseContext, type DiffLine, diffTexts, parseUnifiedDiff } from './diff-lines.js';

const marked = (lines: readonly DiffLine[]) =>
  lines.map(
    (line) =>
      `${{ add: '+', remove: '-', context: ' ', hunk: '@', meta: '#', skipped: '~' }[line.kind]}${line.text}`,
  );

describe('parseUnifiedDiff', () => {
  it('splits a git diff into files named by their new path, with each line marked', () => {
    const files = parseUnifiedDiff(
      [
        'diff --git a/src/a.ts b/src/a.ts',
        'index 1234..5678 100644',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,2 +1,2 @@',
        ' keep',
        '-old',
        '+new',
        'diff --git a/src/gone.ts b/src/gone.ts',
        'deleted file mode 100644',
        '--- a/src/gone.ts',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
      ].join('\n'),
    );
    expect(files.map((file) => file.path)).toEqual(['src/a.ts', 'src/gone.ts']);
    expect(marked(files[0]!.lines)).toEqual([
      '#index 1234..5678 100644',
      '@@@ -1,2 +1,2 @@',
      ' keep',
      '-old',
      '+new',
    ]);
    expect(marked(files[1]!.lines)).toEqual(['#deleted file mode 100644', '@@@ -1 +0,0 @@', '-bye']);
  });

  it('reads a plain `diff -u` and a bare hunk without headers', () => {
    const plain = parseUnifiedDiff('--- x.txt\t2024-01-01\n+++ x.txt\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n');
    expect(plain).toHaveLength(1);
    expect(plain[0]!.path).toBe('x.txt');
    const bare = parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b');
    expect(bare.map((file) => file.path)).toEqual([null]);
    expect(marked(bare[0]!.lines)).toEqual(['@@@ -1 +1 @@', '-a', '+b']);
  });
});

describe('diffTexts and collapseContext', () => {
  it('marks what changed between two texts', () => {
    expect(marked(diffTexts('a\nb\nc\n', 'a\nx\nc\nd\n'))).toEqual([' a', '-b', '+x', ' c', '+d']);
  });

  it('keeps three lines around each change and counts the rest', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    expect(marked(collapseContext(diffTexts(before, after)))).toEqual([
      '~7 unchanged lines',
      ' line 7',
      ' line 8',
      ' line 9',
      '-line 10',
      '+line ten',
      ' line 11',
      ' line 12',
      ' line 13',
      '~6 unchanged lines',
    ]);
  });
});
