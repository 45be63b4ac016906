import { describe, expect, it } from 'vitest';
import { unquoteGitPath } from './diff-names.js';
import { fileDiffOf, parseUnifiedDiff, parseUnifiedDiffBytes } from './unified-diff.js';

const wireFiles = (patch: string) => parseUnifiedDiff(patch).map(fileDiffOf);
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)),
  );

const MODIFIED = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,4 +1,5 @@ export function main() {',
  ' one',
  '-two',
  '+TWO',
  '+two and a half',
  ' three',
  '',
  '@@ -10,2 +11,2 @@',
  ' ten',
  '-eleven',
  '+ELEVEN',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('parseUnifiedDiff as the wire FileDiff', () => {
  it('numbers each line on its side, across hunks, keeping empty context lines', () => {
    const [file] = wireFiles(MODIFIED);
    expect(file).toMatchObject({
      path: 'src/app.ts',
      oldPath: null,
      status: 'modified',
      binary: false,
      truncated: false,
    });
    expect(file?.hunks).toHaveLength(2);
    expect(file?.hunks[0]).toMatchObject({
      header: '@@ -1,4 +1,5 @@ export function main() {',
      oldStart: 1,
      oldLines: 4,
      newStart: 1,
      newLines: 5,
    });
    expect(file?.hunks[0]?.lines).toEqual([
      { kind: 'context', oldLine: 1, newLine: 1, text: 'one' },
      { kind: 'del', oldLine: 2, newLine: null, text: 'two' },
      { kind: 'add', oldLine: null, newLine: 2, text: 'TWO' },
      { kind: 'add', oldLine: null, newLine: 3, text: 'two and a half' },
      { kind: 'context', oldLine: 3, newLine: 4, text: 'three' },
      { kind: 'context', oldLine: 4, newLine: 5, text: '' },
    ]);
    expect(file?.hunks[1]?.lines).toEqual([
      { kind: 'context', oldLine: 10, newLine: 11, text: 'ten' },
      { kind: 'del', oldLine: 11, newLine: null, text: 'eleven' },
      { kind: 'add', oldLine: null, newLine: 12, text: 'ELEVEN' },
    ]);
  });

  it('reads added, deleted, renamed, mode-only and binary files from one patch', () => {
    const patch = [
      'diff --git a/new.md b/new.md',
      'new file mode 100644',
      'index 0000000..1111111',
      '--- /dev/null',
      '+++ b/new.md',
      '@@ -0,0 +1 @@',
      '+hello',
      'diff --git a/old.md b/old.md',
      'deleted file mode 100644',
      'index 1111111..0000000',
      '--- a/old.md',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/from.md b/to.md',
      'similarity index 100%',
      'rename from from.md',
      'rename to to.md',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/logo.png b/logo.png',
      'index 1111111..2222222 100644',
      'Binary files a/logo.png and b/logo.png differ',
      '',
    ].join('\n');
    const files = wireFiles(patch);
    expect(files.map(({ path, oldPath, status, binary }) => ({ path, oldPath, status, binary }))).toEqual([
      { path: 'new.md', oldPath: null, status: 'added', binary: false },
      { path: 'old.md', oldPath: null, status: 'deleted', binary: false },
      { path: 'to.md', oldPath: 'from.md', status: 'renamed', binary: false },
      { path: 'run.sh', oldPath: null, status: 'modified', binary: false },
      { path: 'logo.png', oldPath: null, status: 'modified', binary: true },
    ]);
    expect(files[0]?.hunks[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 });
    expect(files[1]?.hunks[0]?.lines).toEqual([{ kind: 'del', oldLine: 1, newLine: null, text: 'bye' }]);
    expect(files[4]?.hunks).toEqual([]);
  });

  it('reads quoted names with escapes and UTF-8 bytes, and unquoted names with spaces', () => {
    const patch = [
      'diff --git "a/sp ace \\"q\\"\\t.md" "b/\\303\\251 t.md"',
      'similarity index 90%',
      'rename from "sp ace \\"q\\"\\t.md"',
      'rename to "\\303\\251 t.md"',
      'diff --git a/with space.md b/with space.md',
      '--- a/with space.md\t',
      '+++ b/with space.md\t',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/b c b/b c',
      'old mode 100644',
      'new mode 100755',
      '',
    ].join('\n');
    const files = wireFiles(patch);
    expect(files.map((file) => [file.path, file.oldPath])).toEqual([
      ['é t.md', 'sp ace "q"\t.md'],
      ['with space.md', null],
      ['b c', null],
    ]);
  });

  it('marks a hunk cut short as truncated', () => {
    const patch = ['diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1,3 +1,3 @@', ' x', '-y', ''].join('\n');
    expect(wireFiles(patch)[0]).toMatchObject({ truncated: true });
  });

  it('answers nothing for an empty patch', () => {
    expect(wireFiles('')).toEqual([]);
  });
});

describe('unquoteGitPath', () => {
  it('decodes C escapes and octal UTF-8 bytes, and says how much it read', () => {
    expect(unquoteGitPath('"a\\\\b\\"c\\n\\303\\251" rest')).toEqual({ value: 'a\\b"c\né', length: 19 });
  });
});

describe('parseUnifiedDiff', () => {
  it('names a rename from its rename lines and a copy from its copy lines', () => {
    const files = parseUnifiedDiff(
      [
        'diff --git a/old.ts b/new.ts',
        'similarity index 80%',
        'rename from old.ts',
        'rename to new.ts',
        '--- a/old.ts',
        '+++ b/new.ts',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        'diff --git a/src.ts b/copy.ts',
        'similarity index 100%',
        'copy from src.ts',
        'copy to copy.ts',
        '',
      ].join('\n'),
    );
    expect(files.map(({ oldName, newName, status }) => [oldName, newName, status])).toEqual([
      ['old.ts', 'new.ts', 'renamed'],
      ['src.ts', 'copy.ts', 'copied'],
    ]);
    expect(fileDiffOf(files[1]!)).toMatchObject({ path: 'copy.ts', oldPath: null, status: 'added' });
  });

  it('reads a binary file as binary with no hunks, whether git says so in words or as a patch', () => {
    const files = parseUnifiedDiff(
      [
        'diff --git a/a.png b/a.png',
        'index 1..2 100644',
        'Binary files a/a.png and b/a.png differ',
        'diff --git a/b.png b/b.png',
        'index 1..2 100644',
        'GIT binary patch',
        'literal 5',
        'McmZQzWMT#Y01f~G2><{9',
        '',
      ].join('\n'),
    );
    expect(files.map(({ newName, binary, hunks }) => [newName, binary, hunks.length])).toEqual([
      ['a.png', true, 0],
      ['b.png', true, 0],
    ]);
  });

  it('skips "no newline at end of file" on either side without counting it as a line', () => {
    const [file] = parseUnifiedDiff(
      [
        '--- a/x',
        '+++ b/x',
        '@@ -1 +1 @@',
        '-old',
        '\\ No newline at end of file',
        '+new',
        '\\ No newline at end of file',
      ].join('\n'),
    );
    expect(file?.hunks[0]?.lines.map((line) => `${line.kind}:${line.text}`)).toEqual(['del:old', 'add:new']);
    expect(file?.truncated).toBe(false);
  });

  it('numbers lines across several hunks and several plain-diff files, /dev/null sides included', () => {
    const files = parseUnifiedDiff(
      [
        '--- x.js\t2024-01-01 10:00:00',
        '+++ x.js\t2024-01-02 10:00:00',
        '@@ -2,2 +2,3 @@',
        ' a',
        '+b',
        ' c',
        '@@ -20 +21 @@',
        '-t',
        '+T',
        '--- /dev/null',
        '+++ b/new.rs',
        '@@ -0,0 +1 @@',
        '+fn a() {}',
        '--- a/gone.rs',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-fn b() {}',
      ].join('\n'),
    );
    expect(files.map(({ oldName, newName, status }) => [oldName, newName, status])).toEqual([
      ['x.js', 'x.js', 'modified'],
      [null, 'new.rs', 'added'],
      ['gone.rs', null, 'deleted'],
    ]);
    expect(files[0]?.hunks.map((hunk) => hunk.lines.map((line) => [line.oldLine, line.newLine]))).toEqual([
      [
        [2, 2],
        [null, 3],
        [3, 4],
      ],
      [
        [20, null],
        [null, 21],
      ],
    ]);
  });

  it('reads hunk lines that look like file headers as content while the hunk counts them', () => {
    const [file, ...rest] = parseUnifiedDiff(
      ['--- a/c.sql', '+++ b/c.sql', '@@ -1,2 +1,2 @@', '--- a', '+++ b', ' x'].join('\n'),
    );
    expect(rest).toEqual([]);
    expect(file?.hunks[0]?.lines.map((line) => line.kind)).toEqual(['del', 'add', 'context']);
  });

  it('keeps every line in order as rows when asked, a bare hunk and a preamble as an unnamed file', () => {
    const [preamble, named] = parseUnifiedDiff(
      [
        'Here is the change:',
        'diff --git a/a b/a',
        'index 1..2',
        '--- a/a',
        '+++ b/a',
        '@@ -1 +1 @@',
        '-x',
        '\\ No newline at end of file',
        '+y',
      ].join('\n'),
      { rows: true },
    );
    expect(preamble).toMatchObject({
      oldName: null,
      newName: null,
      rows: [{ kind: 'meta', text: 'Here is the change:' }],
    });
    expect(named?.rows).toEqual([
      { kind: 'meta', text: 'index 1..2' },
      { kind: 'hunk', text: '@@ -1 +1 @@' },
      { kind: 'del', text: 'x' },
      { kind: 'meta', text: '\\ No newline at end of file' },
      { kind: 'add', text: 'y' },
    ]);
    const [bare] = parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b', { rows: true });
    expect(bare).toMatchObject({ oldName: null, newName: null, hunks: [{ oldStart: 1, newStart: 1 }] });
    expect(parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b')[0]?.rows).toEqual([]);
  });
});

describe('parseUnifiedDiffBytes', () => {
  it('reads a file whose changed lines are not UTF-8 as binary and keeps its neighbours as text', () => {
    const files = parseUnifiedDiffBytes(
      bytes(
        'diff --git a/l.txt b/l.txt\n--- a/l.txt\n+++ b/l.txt\n@@ -1 +1 @@\n-caf',
        [0xe9],
        '\n+cafe\n',
        'diff --git a/u.txt b/u.txt\n--- a/u.txt\n+++ b/u.txt\n@@ -1 +1 @@\n-é\n+è\n',
      ),
    );
    expect(files.map(({ newName, binary, hunks }) => [newName, binary, hunks.length])).toEqual([
      ['l.txt', true, 0],
      ['u.txt', false, 1],
    ]);
    expect(files[1]?.hunks[0]?.lines.map((line) => line.text)).toEqual(['é', 'è']);
  });

  it('keeps a byte-order mark in a line and drops a partial last line of a cut patch', () => {
    const [file] = parseUnifiedDiffBytes(
      bytes('diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-', [0xef, 0xbb, 0xbf], 'one\n+ON'),
      { cut: true },
    );
    expect(file?.truncated).toBe(true);
    expect(file?.hunks[0]?.lines).toEqual([{ kind: 'del', oldLine: 1, newLine: null, text: '\ufeffone' }]);
  });

  it('answers nothing for no bytes, cut or not', () => {
    expect(parseUnifiedDiffBytes(new Uint8Array())).toEqual([]);
    expect(parseUnifiedDiffBytes(bytes('diff --git a/a b/a'), { cut: true })).toEqual([]);
  });
});
