import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../testing/git-fixtures.js';
import { gitText } from './git.js';
import {
  changedFiles,
  deleteBranch,
  diffRefs,
  fileDiff,
  isAncestor,
  listBranches,
  listFiles,
  log,
  mergeBase,
  readFile,
  resolveRef,
  show,
} from './git-ops.js';
import { ensureRepo, personIdentity, serverIdentity } from './repos.js';

let dir: string;
let repo: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gh-gitops-'));
  repo = await ensureRepo(dir, 'run_ops');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = (count: number, label = 'line') =>
  Array.from({ length: count }, (_, i) => `${label} ${i + 1}\n`).join('');

describe('refs', () => {
  it('resolves branches and commit ids, and answers null for what is missing', async () => {
    const main = await resolveRef(repo, 'main');
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    expect(await resolveRef(repo, main as string)).toBe(main);
    expect(await resolveRef(repo, 'phase-1-strategic')).toBeNull();
    expect(await resolveRef(repo, '0000000000000000000000000000000000000000')).toBeNull();
  });

  it('refuses refs that git would read as options or revision syntax', async () => {
    for (const ref of ['--all', '-n', 'main..x', 'main^', 'a b', 'main@{1}', 'HEAD:x', '']) {
      await expect(resolveRef(repo, ref)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'ref' },
      });
    }
  });

  it('lists branches with heads, finds merge bases and ancestors, and deletes branches but not main', async () => {
    const main = (await resolveRef(repo, 'main')) as string;
    const head = await commitFiles(repo, 'phase-1-strategic', { 'a.md': 'a\n' }, { from: 'main' });
    expect(await listBranches(repo)).toEqual([
      { name: 'main', head: main },
      { name: 'phase-1-strategic', head },
    ]);
    expect(await mergeBase(repo, 'main', 'phase-1-strategic')).toBe(main);
    expect(await isAncestor(repo, main, head)).toBe(true);
    expect(await isAncestor(repo, head, main)).toBe(false);
    await deleteBranch(repo, 'phase-1-strategic');
    expect(await resolveRef(repo, 'phase-1-strategic')).toBeNull();
    await expect(deleteBranch(repo, 'main')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
  it('answers NOT_FOUND naming the missing side, or histories that never met', async () => {
    await expect(mergeBase(repo, 'main', 'phase-4-strategic')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { field: 'head' },
    });
    await expect(mergeBase(repo, 'phase-4-strategic', 'main')).rejects.toMatchObject({
      details: { field: 'base' },
    });
    const tree = await gitText(repo, ['mktree'], { input: '' });
    const orphan = await gitText(repo, ['commit-tree', tree, '-m', 'elsewhere'], { env: serverIdentity(5) });
    await expect(mergeBase(repo, 'main', orphan)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: /share no history/,
    });
  });
});

describe('changedFiles and fileDiff', () => {
  it('lists a branch’s changes from the merge base: added, modified, deleted, renamed, binary, with counts', async () => {
    await commitFiles(repo, 'main', {
      'keep.txt': lines(5),
      'gone.txt': 'bye\n',
      'old name.md': lines(20, 'doc'),
    });
    await commitFiles(
      repo,
      'phase-1-tactical',
      {
        'keep.txt': lines(5).replace('line 3\n', 'LINE 3\nextra\n'),
        'gone.txt': null,
        'old name.md': null,
        'docs/new “name” é\t.md': `${lines(20, 'doc')}more\n`,
        'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
        'fresh.txt': 'one\ntwo\n',
      },
      { from: 'main' },
    );
    // main moves on after the branch: the branch's view is still from the merge base.
    await commitFiles(repo, 'main', { 'later.txt': 'later\n' });
    const files = await changedFiles(repo, 'main', 'phase-1-tactical');
    const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
    expect(Object.keys(byPath).sort()).toEqual(
      ['docs/new “name” é\t.md', 'fresh.txt', 'gone.txt', 'image.png', 'keep.txt'].sort(),
    );
    expect(byPath['keep.txt']).toMatchObject({
      status: 'modified',
      added: 2,
      removed: 1,
      binary: false,
      oldPath: null,
    });
    expect(byPath['gone.txt']).toMatchObject({ status: 'deleted', added: 0, removed: 1 });
    expect(byPath['fresh.txt']).toMatchObject({ status: 'added', added: 2, removed: 0 });
    expect(byPath['image.png']).toMatchObject({ status: 'added', binary: true, added: 0, removed: 0 });
    expect(byPath['docs/new “name” é\t.md']).toMatchObject({
      status: 'renamed',
      oldPath: 'old name.md',
      added: 1,
    });
  });

  it('gives one file’s hunks with old and new line numbers', async () => {
    await commitFiles(repo, 'main', { 'a.txt': lines(30) });
    await commitFiles(
      repo,
      'phase-1-strategic',
      { 'a.txt': lines(30).replace('line 15\n', 'fifteen\n') },
      { from: 'main' },
    );
    const diff = await fileDiff(repo, 'main', 'phase-1-strategic', 'a.txt');
    expect(diff).toMatchObject({ path: 'a.txt', status: 'modified', binary: false, truncated: false });
    expect(diff.hunks).toHaveLength(1);
    const hunk = diff.hunks[0];
    expect(hunk).toMatchObject({ oldStart: 12, oldLines: 7, newStart: 12, newLines: 7 });
    expect(hunk?.lines.filter((line) => line.kind !== 'context')).toEqual([
      { kind: 'del', oldLine: 15, newLine: null, text: 'line 15' },
      { kind: 'add', oldLine: null, newLine: 15, text: 'fifteen' },
    ]);
    expect(hunk?.lines[0]).toEqual({ kind: 'context', oldLine: 12, newLine: 12, text: 'line 12' });
  });

  it('diffs a renamed file against its old name, and a file with an unusual name', async () => {
    const name = 'dir with space/"quoted"\tand é.md';
    await commitFiles(repo, 'main', { 'before.md': lines(10) });
    await commitFiles(
      repo,
      'phase-1-strategic',
      { 'before.md': null, [name]: lines(10).replace('line 2\n', 'two\n') },
      { from: 'main' },
    );
    const diff = await fileDiff(repo, 'main', 'phase-1-strategic', name);
    expect(diff).toMatchObject({ path: name, oldPath: 'before.md', status: 'renamed' });
    expect(diff.hunks[0]?.lines.find((line) => line.kind === 'add')).toEqual({
      kind: 'add',
      oldLine: null,
      newLine: 2,
      text: 'two',
    });
  });

  it('shows binary and non-UTF-8 files as binary with no lines or counts, in the list and the diff alike', async () => {
    const latin = (text: string) => Buffer.from(text, 'latin1');
    await commitFiles(repo, 'main', { 'mixed.txt': latin(`caf\xe9\n${lines(10)}`) });
    await commitFiles(
      repo,
      'phase-1-strategic',
      {
        'blob.bin': Buffer.from([0, 1, 2, 3]),
        'latin1.txt': latin('caf\xe9\n'),
        'mixed.txt': latin(`caf\xe9\n${lines(10).replace('line 9\n', 'nine\n')}`),
        'plain.txt': 'plain\n',
      },
      { from: 'main' },
    );
    const files = await changedFiles(repo, 'main', 'phase-1-strategic');
    expect(files.map(({ path, binary, added, removed }) => ({ path, binary, added, removed }))).toEqual([
      { path: 'blob.bin', binary: true, added: 0, removed: 0 },
      { path: 'latin1.txt', binary: true, added: 0, removed: 0 },
      { path: 'mixed.txt', binary: true, added: 0, removed: 0 },
      { path: 'plain.txt', binary: false, added: 1, removed: 0 },
    ]);
    for (const path of ['blob.bin', 'latin1.txt', 'mixed.txt']) {
      expect(await fileDiff(repo, 'main', 'phase-1-strategic', path)).toMatchObject({
        path,
        binary: true,
        hunks: [],
      });
    }
    const shown = await diffRefs(repo, 'main', 'phase-1-strategic');
    expect(shown.files.map((file) => [file.path, file.binary, file.hunks.length])).toEqual([
      ['blob.bin', true, 0],
      ['latin1.txt', true, 0],
      ['mixed.txt', true, 0],
      ['plain.txt', false, 1],
    ]);
  });

  it('checks a renamed file’s old side, and a name holding a newline, for text too', async () => {
    const latin = Buffer.from(`caf\xe9\n${lines(10)}`, 'latin1');
    await commitFiles(repo, 'main', { 'old.txt': latin, 'two\nlines.md': lines(10) });
    await commitFiles(
      repo,
      'phase-1-strategic',
      { 'old.txt': null, 'new.txt': latin, 'two\nlines.md': lines(10).replace('line 4\n', 'four\n') },
      { from: 'main' },
    );
    expect(await fileDiff(repo, 'main', 'phase-1-strategic', 'new.txt')).toMatchObject({
      status: 'renamed',
      oldPath: 'old.txt',
      binary: true,
      hunks: [],
    });
    const multiline = await fileDiff(repo, 'main', 'phase-1-strategic', 'two\nlines.md');
    expect(multiline).toMatchObject({ path: 'two\nlines.md', status: 'modified', binary: false });
    expect(multiline.hunks[0]?.lines.find((line) => line.kind === 'add')).toMatchObject({
      newLine: 4,
      text: 'four',
    });
  });

  it('cuts a diff at maxBytes and marks it truncated', async () => {
    await commitFiles(repo, 'phase-1-strategic', { 'big.txt': lines(5000) }, { from: 'main' });
    const diff = await fileDiff(repo, 'main', 'phase-1-strategic', 'big.txt', { maxBytes: 10_000 });
    expect(diff.truncated).toBe(true);
    const count = diff.hunks[0]?.lines.length ?? 0;
    expect(count).toBeGreaterThan(100);
    expect(count).toBeLessThan(5000);
    const full = await fileDiff(repo, 'main', 'phase-1-strategic', 'big.txt');
    expect(full.truncated).toBe(false);
    expect(full.hunks[0]?.lines).toHaveLength(5000);
  });

  it('answers unchanged for a file the branch did not touch, NOT_FOUND for a path that is no file of it', async () => {
    await commitFiles(repo, 'main', { 'same.txt': 'same\n', 'dir/inside.txt': 'in\n' });
    await commitFiles(repo, 'phase-1-strategic', { 'other.txt': 'x\n' }, { from: 'main' });
    expect(await fileDiff(repo, 'main', 'phase-1-strategic', 'same.txt')).toMatchObject({
      status: 'unchanged',
      hunks: [],
    });
    for (const path of ['nope.txt', 'dir']) {
      await expect(fileDiff(repo, 'main', 'phase-1-strategic', path)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        details: { field: 'path' },
      });
    }
  });

  it('refuses paths that leave the repository', async () => {
    for (const path of ['../etc/passwd', '/etc/passwd', 'a/../../b', '.git/config', 'a\\b', './a']) {
      await expect(fileDiff(repo, 'main', 'main', path)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'path' },
      });
      await expect(readFile(repo, 'main', path)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});

describe('reading files, history and diffs', () => {
  it('reads text, binary and non-UTF-8 files, and null for a missing path or a folder', async () => {
    const commit = await commitFiles(repo, 'main', {
      'docs/a b “c”.md': '# Title\n',
      'bin.dat': Buffer.from([1, 0, 2]),
      'latin.txt': Buffer.from('\xff\xfe', 'latin1'),
    });
    expect(await readFile(repo, 'main', 'docs/a b “c”.md')).toEqual({
      path: 'docs/a b “c”.md',
      commit,
      binary: false,
      size: 8,
      text: '# Title\n',
    });
    expect(await readFile(repo, commit, 'bin.dat')).toMatchObject({ binary: true, text: null, size: 3 });
    expect(await readFile(repo, commit, 'latin.txt')).toMatchObject({ binary: true, text: null, size: 2 });
    const bom = await commitFiles(repo, 'main', { 'bom.txt': '\ufeffwith a mark\n' });
    expect((await readFile(repo, bom, 'bom.txt'))?.text).toBe('\ufeffwith a mark\n');
    expect(await readFile(repo, commit, 'missing.md')).toBeNull();
    expect(await readFile(repo, commit, 'docs')).toBeNull();
    await expect(readFile(repo, commit, 'docs/a b “c”.md', { maxBytes: 4 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('takes paths literally, never as patterns', async () => {
    const from = (await resolveRef(repo, 'main')) as string;
    const star = await commitFiles(repo, 'main', { 'a*.md': 'star\n' });
    await commitFiles(repo, 'main', { 'ab.md': 'ab\n' });
    expect(await readFile(repo, 'main', 'a*.md')).toMatchObject({ text: 'star\n' });
    expect((await listFiles(repo, 'main', { under: 'a*.md' })).files).toEqual([{ path: 'a*.md', size: 5 }]);
    expect((await log(repo, 'main', { path: 'a*.md' })).map((commit) => commit.commit)).toEqual([star]);
    expect((await diffRefs(repo, from, 'main', { path: 'a*.md' })).files.map((file) => file.path)).toEqual([
      'a*.md',
    ]);
  });

  it('lists files under a folder with sizes, and says when the limit cut the list', async () => {
    await commitFiles(repo, 'main', {
      'docs/a.md': 'aa\n',
      'docs/sub/b.md': 'b\n',
      'docsx.md': 'x\n',
      'top.txt': '',
    });
    expect(await listFiles(repo, 'main', { under: 'docs' })).toEqual({
      files: [
        { path: 'docs/a.md', size: 3 },
        { path: 'docs/sub/b.md', size: 2 },
      ],
      truncated: false,
    });
    const limited = await listFiles(repo, 'main', { limit: 2 });
    expect(limited).toMatchObject({ truncated: true });
    expect(limited.files).toHaveLength(2);
  });

  it('logs commits newest first, by path, with author, time, subject and body', async () => {
    const alice = personIdentity('Alice Doe', 1_750_000_000_000);
    const first = await commitFiles(
      repo,
      'main',
      { 'a.md': 'a\n' },
      { message: 'Add a\n\nWhy: because.\nMore.', identity: alice },
    );
    const second = await commitFiles(repo, 'main', { 'b.md': 'b\n' }, { message: 'Add b' });
    const commits = await log(repo, 'main');
    expect(commits.map((commit) => commit.commit).slice(0, 2)).toEqual([second, first]);
    expect(commits).toHaveLength(3);
    expect(commits[1]).toEqual({
      commit: first,
      parents: [commits[2]?.commit],
      authorName: 'Alice Doe',
      authorEmail: 'alice-doe@gatehouse.invalid',
      authoredAt: 1_750_000_000_000,
      subject: 'Add a',
      body: 'Why: because.\nMore.',
    });
    expect((await log(repo, 'main', { path: 'a.md' })).map((commit) => commit.commit)).toEqual([first]);
    expect(await log(repo, 'main', { limit: 1 })).toHaveLength(1);
  });

  it('shows a commit with its diff against its parent, and the first commit against nothing', async () => {
    await commitFiles(repo, 'main', { 'a.md': 'one\n' });
    const commit = await commitFiles(
      repo,
      'main',
      { 'a.md': 'two\n', 'c d.md': 'new\n' },
      { message: 'Edit' },
    );
    const shown = await show(repo, commit);
    expect(shown.commit).toMatchObject({ commit, subject: 'Edit' });
    expect(shown.files.map((file) => [file.path, file.status])).toEqual([
      ['a.md', 'modified'],
      ['c d.md', 'added'],
    ]);
    expect(shown.files[1]?.hunks[0]?.lines).toEqual([
      { kind: 'add', oldLine: null, newLine: 1, text: 'new' },
    ]);
    const root = (await log(repo, 'main')).at(-1)?.commit as string;
    expect((await show(repo, root)).files).toEqual([]);
  });

  it('diffs two refs directly, under a path, and caps the number of files', async () => {
    const from = await commitFiles(repo, 'main', { 'a/1.md': '1\n', 'b/2.md': '2\n' });
    const to = await commitFiles(repo, 'main', { 'a/1.md': 'one\n', 'b/2.md': 'two\n', 'a/3.md': '3\n' });
    const all = await diffRefs(repo, from, to);
    expect(all.files.map((file) => file.path)).toEqual(['a/1.md', 'a/3.md', 'b/2.md']);
    expect(all.truncated).toBe(false);
    expect((await diffRefs(repo, from, to, { path: 'b' })).files.map((file) => file.path)).toEqual([
      'b/2.md',
    ]);
    const capped = await diffRefs(repo, from, to, { maxFiles: 2 });
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.files).toHaveLength(2);
    await expect(diffRefs(repo, from, 'phase-9-strategic')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
