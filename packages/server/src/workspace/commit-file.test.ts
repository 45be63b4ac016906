import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../testing/git-fixtures.js';
import { gitText } from './git.js';
import { commitFile, listFiles, log, readFile, resolveRef } from './git-ops.js';
import { ensureRepo, personIdentity } from './repos.js';

let dir: string;
let repo: string;
let head: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gh-commitfile-'));
  repo = await ensureRepo(dir, 'run_edit');
  head = await commitFiles(
    repo,
    'phase-1-strategic',
    { 'plan.md': 'old\n', 'run.sh': { content: '#!/bin/sh\n', mode: '100755' }, 'docs/a.md': 'a\n' },
    { from: 'main' },
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bob = personIdentity('Bob', 1_765_000_000_000);
const edit = (path: string, text: string, expectedHead = head) => ({
  branch: 'phase-1-strategic',
  path,
  text,
  message: `Edit ${path}`,
  identity: bob,
  expectedHead,
});

async function modeOf(commit: string, path: string): Promise<string> {
  return (await gitText(repo, ['ls-tree', commit, '--', path])).split(' ')[0] as string;
}

describe('commitFile', () => {
  it('commits the new text on the branch as the person, on top of the expected head', async () => {
    const commit = await commitFile(repo, edit('plan.md', 'new\n'));
    expect(await resolveRef(repo, 'phase-1-strategic')).toBe(commit);
    expect((await readFile(repo, commit, 'plan.md'))?.text).toBe('new\n');
    const [entry] = await log(repo, commit, { limit: 1 });
    expect(entry).toMatchObject({ parents: [head], authorName: 'Bob', subject: 'Edit plan.md' });
    expect((await listFiles(repo, commit)).files.map((file) => file.path)).toEqual([
      'docs/a.md',
      'plan.md',
      'run.sh',
    ]);
  });

  it('keeps an executable file executable, and adds a new file as a plain one', async () => {
    const first = await commitFile(repo, edit('run.sh', '#!/bin/sh\necho hi\n'));
    expect(await modeOf(first, 'run.sh')).toBe('100755');
    const second = await commitFile(repo, edit('new dir/é “x”.md', 'hello\n', first));
    expect(await modeOf(second, 'new dir/é “x”.md')).toBe('100644');
    expect((await readFile(repo, second, 'new dir/é “x”.md'))?.text).toBe('hello\n');
  });

  it('refuses with CONFLICT naming the branch when the branch moved since the edit began', async () => {
    const pushed = await commitFiles(repo, 'phase-1-strategic', { 'plan.md': 'agent\n' });
    await expect(commitFile(repo, edit('plan.md', 'mine\n'))).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { branch: 'phase-1-strategic', expectedHead: head, head: pushed },
    });
    expect(await resolveRef(repo, 'phase-1-strategic')).toBe(pushed);
  });

  it('lets only one of two edits made on the same head land', async () => {
    const outcomes = await Promise.allSettled([
      commitFile(repo, edit('plan.md', 'first\n')),
      commitFile(repo, edit('plan.md', 'second\n')),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'CONFLICT' },
    });
    expect((await log(repo, 'phase-1-strategic')).at(0)?.parents).toEqual([head]);
  });

  it('makes no commit when the text is what the file already holds', async () => {
    expect(await commitFile(repo, edit('plan.md', 'old\n'))).toBe(head);
    expect(await resolveRef(repo, 'phase-1-strategic')).toBe(head);
  });

  it('refuses paths that leave the repository, a folder, main, and a malformed head', async () => {
    for (const path of ['../x', '/abs', 'a/./b', '.git/HEAD']) {
      await expect(commitFile(repo, edit(path, 'x'))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'path' },
      });
    }
    await expect(commitFile(repo, edit('docs', 'x'))).rejects.toMatchObject({ details: { field: 'path' } });
    await expect(commitFile(repo, edit('plan.md/inner', 'x'))).rejects.toMatchObject({
      details: { field: 'path' },
    });
    await expect(commitFile(repo, { ...edit('plan.md', 'x'), branch: 'main' })).rejects.toMatchObject({
      details: { field: 'branch' },
    });
    await expect(commitFile(repo, edit('plan.md', 'x', 'HEAD'))).rejects.toMatchObject({
      details: { field: 'expectedHead' },
    });
    expect(await resolveRef(repo, 'phase-1-strategic')).toBe(head);
  });

  it('leaves no temporary index behind, whether the commit lands or not', async () => {
    const own = join(dir, 'tmp');
    await mkdir(own);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      await commitFile(repo, edit('plan.md', 'again\n'));
      await expect(commitFile(repo, edit('plan.md/inner', 'x'))).rejects.toThrow();
      await expect(commitFile(repo, edit('plan.md', 'late\n'))).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(await readdir(own)).toEqual([]);
  });
});
