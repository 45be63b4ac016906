import { describe, expect, it } from 'vitest';
import { parsePatchBuffer, parseRawNumstat } from './diff-parse.js';

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
