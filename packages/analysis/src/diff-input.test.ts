import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffToChanges } from './diff-input.js';

const repo = mkdtempSync(join(tmpdir(), 'gatehouse-diff-input-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'core.quotePath=true', ...args], { cwd: repo, encoding: 'utf8' });
}

/** Line `n` of a side, 1-based, as the analysis sees it. */
function lineOf(text: string | null, n: number): string | undefined {
  return text?.split('\n')[n - 1];
}

describe('diffToChanges', () => {
  it('reads a real git diff with a modification, an added, a deleted, a renamed, a quoted and a binary file', () => {
    git('init', '-q');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 'T');
    const body = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(repo, 'keep.ts'), `${body.join('\n')}\n`);
    writeFileSync(join(repo, 'gone.test.ts'), 'it("a", () => {\n  expect(1).toBe(1);\n});\n');
    const helpers = 'def helper_one():\n    return 1\n\n\ndef helper_two():\n    return 2\n\n\n';
    writeFileSync(join(repo, 'old-name.py'), `${helpers}def test_a():\n    assert x == 1\n`);
    writeFileSync(join(repo, 'image.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    git('add', '.');
    git('commit', '-qm', 'base');
    body[19] = 'line twenty';
    writeFileSync(join(repo, 'keep.ts'), `${body.join('\n')}\n`);
    rmSync(join(repo, 'gone.test.ts'));
    git('mv', 'old-name.py', 'new-name.py');
    writeFileSync(join(repo, 'new-name.py'), `${helpers}def test_a():\n    assert x\n`);
    writeFileSync(join(repo, 'tab\tname ü.go'), 'package a\n');
    writeFileSync(join(repo, 'image.bin'), Buffer.from([0, 9, 9, 9, 0, 255]));
    git('add', '-A');
    const changes = diffToChanges(git('diff', '--cached', '-M'));

    expect(changes.map((c) => [c.path, c.oldPath ?? null])).toEqual([
      ['gone.test.ts', null],
      ['keep.ts', null],
      ['new-name.py', 'old-name.py'],
      ['tab\tname ü.go', null],
    ]);
    const [gone, keep, renamed, quoted] = changes;
    expect(gone?.after).toBeNull();
    expect(gone?.before).toBe('it("a", () => {\n  expect(1).toBe(1);\n});');
    expect(lineOf(keep?.before ?? null, 20)).toBe('line 20');
    expect(lineOf(keep?.after ?? null, 20)).toBe('line twenty');
    expect(lineOf(keep?.after ?? null, 17)).toBe('line 17');
    expect(lineOf(keep?.after ?? null, 5)).toBe('');
    expect(renamed?.before).toContain('assert x == 1');
    expect(lineOf(renamed?.after ?? null, 10)).toBe('    assert x');
    expect(quoted?.before).toBeNull();
    expect(quoted?.after).toBe('package a');
    expect(changes.every((c) => c.partial === true)).toBe(true);
  });

  it('reads a plain diff -u with timestamps, /dev/null sides and several hunks', () => {
    const diff = [
      '--- a/x.js\t2024-01-01 10:00:00',
      '+++ b/x.js\t2024-01-02 10:00:00',
      '@@ -2,2 +2,2 @@',
      ' a',
      '-b',
      '+B',
      '@@ -10 +10,2 @@',
      ' j',
      '+k',
      '\\ No newline at end of file',
      '--- /dev/null',
      '+++ b/new.rs',
      '@@ -0,0 +1 @@',
      '+fn a() {}',
    ].join('\n');
    const [x, added] = diffToChanges(diff);
    expect(x?.path).toBe('x.js');
    expect(x?.before?.split('\n')).toEqual(['', 'a', 'b', '', '', '', '', '', '', 'j']);
    expect(x?.after?.split('\n').slice(9)).toEqual(['j', 'k']);
    expect(added).toEqual({ path: 'new.rs', oldPath: null, before: null, after: 'fn a() {}', partial: true });
  });

  it('keeps a pure rename with no hunks, and reads hunk lines that look like headers as content', () => {
    const diff = [
      'diff --git a/a.ts b/b.ts',
      'similarity index 100%',
      'rename from a.ts',
      'rename to b.ts',
      'diff --git a/c.sql b/c.sql',
      'index 1..2 100644',
      '--- a/c.sql',
      '+++ b/c.sql',
      '@@ -1,2 +1,1 @@',
      '--- a comment',
      ' select 1;',
    ].join('\n');
    const [rename, sql] = diffToChanges(diff);
    expect(rename).toMatchObject({ path: 'b.ts', oldPath: 'a.ts', before: '', after: '' });
    expect(sql?.before).toBe('-- a comment\nselect 1;');
    expect(sql?.after).toBe('select 1;');
  });
});
