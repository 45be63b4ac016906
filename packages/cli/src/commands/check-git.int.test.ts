import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesFromGit, GitError } from './check-git.js';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function createRepo() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-check-git-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  const write = (path: string, text: string | Buffer) => writeFileSync(join(dir, path), text);
  const commit = () => {
    git('add', '-A');
    git('commit', '-q', '-m', 'change');
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  return { dir, git, write, commit };
}

const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);

describe('changesFromGit', () => {
  it('reads the staged files of a repository with no commit yet as added', async () => {
    const repo = createRepo();
    repo.write('a.ts', 'export const a = 1;\n');
    repo.git('add', 'a.ts');
    expect(await changesFromGit(repo.dir, { kind: 'staged' })).toEqual([
      { path: 'a.ts', oldPath: null, before: null, after: 'export const a = 1;\n' },
    ]);
  });

  it('reads whole files: modified, added, deleted, renamed with oldPath, and odd names', async () => {
    const repo = createRepo();
    const long = Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    repo.write('keep.ts', 'one\ntwo\nthree\n');
    repo.write('gone.ts', 'bye\n');
    repo.write('old name.ts', `${long}\n`);
    repo.commit();
    repo.write('keep.ts', 'one\n2\nthree\n');
    repo.git('rm', '-q', 'gone.ts');
    repo.git('mv', 'old name.ts', 'nouveau é.ts');
    repo.write('nouveau é.ts', `${long}\nexport const extra = 1;\n`);
    repo.write('new.ts', 'hello\n');
    repo.commit();
    const changes = (await changesFromGit(repo.dir, { kind: 'commit', rev: 'HEAD' })).sort(byPath);
    expect(changes).toEqual([
      { path: 'gone.ts', oldPath: null, before: 'bye\n', after: null },
      { path: 'keep.ts', oldPath: null, before: 'one\ntwo\nthree\n', after: 'one\n2\nthree\n' },
      { path: 'new.ts', oldPath: null, before: null, after: 'hello\n' },
      {
        path: 'nouveau é.ts',
        oldPath: 'old name.ts',
        before: `${long}\n`,
        after: `${long}\nexport const extra = 1;\n`,
      },
    ]);
  });

  it('leaves binary files out, and reads ranges with and without the merge base', async () => {
    const repo = createRepo();
    repo.write('a.txt', 'base\n');
    repo.commit();
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    repo.write('a.txt', 'feature\n');
    repo.commit();
    repo.git('checkout', '-q', 'main');
    repo.write('b.txt', 'main only\n');
    repo.commit();
    const fromBase = await changesFromGit(repo.dir, {
      kind: 'range',
      from: 'main',
      to: 'feature',
      mergeBase: true,
    });
    expect(fromBase).toEqual([{ path: 'a.txt', oldPath: null, before: 'base\n', after: 'feature\n' }]);
    const direct = await changesFromGit(repo.dir, {
      kind: 'range',
      from: 'main',
      to: 'feature',
      mergeBase: false,
    });
    expect(direct.map((change) => [change.path, change.after])).toEqual([
      ['a.txt', 'feature\n'],
      ['b.txt', null],
    ]);
  });

  it('throws GitError outside a repository and for a revision that is no commit', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'gatehouse-check-nogit-'));
    dirs.push(outside);
    await expect(changesFromGit(outside, { kind: 'staged' })).rejects.toThrow(GitError);
    const repo = createRepo();
    repo.write('a.txt', 'x\n');
    repo.commit();
    await expect(changesFromGit(repo.dir, { kind: 'commit', rev: '--output=x' })).rejects.toThrow(
      "'--output=x' is not a revision",
    );
    await expect(changesFromGit(repo.dir, { kind: 'commit', rev: 'nope' })).rejects.toThrow(
      "unknown revision 'nope'",
    );
  });
});
