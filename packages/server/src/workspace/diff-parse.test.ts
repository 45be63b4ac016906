import { describe, expect, it } from 'vitest';
import { parsePatchBuffer, parseRawNumstat, parseUnifiedDiff, unquote } from './diff-parse.js';

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

describe('parseUnifiedDiff', () => {
  it('numbers each line on its side, across hunks, keeping empty context lines', () => {
    const [file] = parseUnifiedDiff(MODIFIED);
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
    const files = parseUnifiedDiff(patch);
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
    const files = parseUnifiedDiff(patch);
    expect(files.map((file) => [file.path, file.oldPath])).toEqual([
      ['é t.md', 'sp ace "q"\t.md'],
      ['with space.md', null],
      ['b c', null],
    ]);
  });

  it('marks a hunk cut short as truncated', () => {
    const patch = ['diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1,3 +1,3 @@', ' x', '-y', ''].join('\n');
    expect(parseUnifiedDiff(patch)[0]).toMatchObject({ truncated: true });
  });

  it('answers nothing for an empty patch', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});

describe('parsePatchBuffer', () => {
  it('shows a file whose changed lines are not UTF-8 as binary, and its neighbours as text', () => {
    const patch = Buffer.concat([
      Buffer.from('diff --git a/l.txt b/l.txt\n--- a/l.txt\n+++ b/l.txt\n@@ -1 +1 @@\n-caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n+cafe\n'),
      Buffer.from('diff --git a/u.txt b/u.txt\n--- a/u.txt\n+++ b/u.txt\n@@ -1 +1 @@\n-é\n+è\n'),
    ]);
    const [latin, utf] = parsePatchBuffer(patch);
    expect(latin).toMatchObject({ path: 'l.txt', binary: true, hunks: [] });
    expect(utf?.hunks[0]?.lines.map((line) => line.text)).toEqual(['é', 'è']);
  });

  it('drops a partial last line and marks the last file truncated when the output was cut', () => {
    const patch = Buffer.from('diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n-one\n+ON');
    const [file] = parsePatchBuffer(patch, true);
    expect(file?.truncated).toBe(true);
    expect(file?.hunks[0]?.lines).toEqual([{ kind: 'del', oldLine: 1, newLine: null, text: 'one' }]);
  });
});

describe('parseRawNumstat', () => {
  it('pairs raw records with numstat counts by position, renames and binary included', () => {
    const output = Buffer.from(
      [
        ':000000 100644 0000 1111 A',
        'bin',
        ':100644 100644 2222 3333 M',
        'x',
        ':100644 100644 4444 4444 R087',
        ':odd "name"',
        'é t.txt',
        '-\t-\tbin',
        '1\t2\tx',
        '3\t0\t',
        ':odd "name"',
        'é t.txt',
        '',
      ].join('\0'),
    );
    expect(parseRawNumstat(output)).toEqual([
      {
        file: { path: 'bin', oldPath: null, status: 'added', added: 0, removed: 0, binary: true },
        oldId: '0000',
        newId: '1111',
      },
      {
        file: { path: 'x', oldPath: null, status: 'modified', added: 1, removed: 2, binary: false },
        oldId: '2222',
        newId: '3333',
      },
      {
        file: {
          path: 'é t.txt',
          oldPath: ':odd "name"',
          status: 'renamed',
          added: 3,
          removed: 0,
          binary: false,
        },
        oldId: '4444',
        newId: '4444',
      },
    ]);
    expect(
      parseRawNumstat(output.subarray(0, output.indexOf('-\t-')), false).map(({ file }) => file.added),
    ).toEqual([0, 0, 0]);
  });
});

describe('unquote', () => {
  it('decodes C escapes and octal UTF-8 bytes, and says how much it read', () => {
    expect(unquote('"a\\\\b\\"c\\n\\303\\251" rest')).toEqual({ value: 'a\\b"c\né', length: 19 });
  });
});
