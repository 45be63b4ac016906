import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../testing/git-fixtures.js';
import { gitText } from './git.js';
import { listFiles, log, readFile, resolveRef, squashMerge } from './git-ops.js';
import { ensureRepo, serverIdentity } from './repos.js';

let dir: string;
let repo: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gh-merge-'));
  repo = await ensureRepo(dir, 'run_merge');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const identity = serverIdentity(1_760_000_000);

describe('squashMerge', () => {
  it('puts a branch’s commits on main as one commit with the given message, whoever wrote them', async () => {
    const start = (await resolveRef(repo, 'main')) as string;
    await commitFiles(repo, 'phase-1-strategic', { 'plan.md': 'v1\n' }, { from: 'main', message: 'agent' });
    await commitFiles(
      repo,
      'phase-1-strategic',
      { 'plan.md': 'v2\n', 'notes.md': 'n\n' },
      { message: 'person' },
    );
    const result = await squashMerge(repo, {
      branch: 'phase-1-strategic',
      message: 'Phase 1\n\nRetro.',
      identity,
    });
    if (!result.ok) throw new Error('expected a merge');
    expect(result.empty).toBe(false);
    expect(await resolveRef(repo, 'main')).toBe(result.commit);
    const [commit] = await log(repo, 'main', { limit: 1 });
    expect(commit).toMatchObject({
      parents: [start],
      subject: 'Phase 1',
      body: 'Retro.',
      authorName: 'Gatehouse',
    });
    expect((await readFile(repo, 'main', 'plan.md'))?.text).toBe('v2\n');
    expect((await listFiles(repo, 'main')).files.map((file) => file.path)).toEqual(['notes.md', 'plan.md']);
  });

  it('merges on top of a main that moved, when the changes do not overlap', async () => {
    await commitFiles(repo, 'main', { 'shared.md': lines(10) });
    await commitFiles(
      repo,
      'phase-2-tactical',
      { 'shared.md': lines(10).replace('l1\n', 'L1\n') },
      { from: 'main' },
    );
    const moved = await commitFiles(repo, 'main', { 'shared.md': lines(10).replace('l10\n', 'L10\n') });
    const result = await squashMerge(repo, { branch: 'phase-2-tactical', message: 'Phase 2', identity });
    expect(result).toMatchObject({ ok: true, empty: false });
    expect((await log(repo, 'main', { limit: 1 }))[0]?.parents).toEqual([moved]);
    expect((await readFile(repo, 'main', 'shared.md'))?.text).toBe(
      lines(10).replace('l1\n', 'L1\n').replace('l10\n', 'L10\n'),
    );
  });

  it('refuses a conflicting merge, names the files, and leaves main as it was', async () => {
    await commitFiles(repo, 'main', { 'a b.md': 'base\n', 'ok.md': 'ok\n' });
    await commitFiles(
      repo,
      'phase-1-strategic',
      { 'a b.md': 'branch\n', 'ok.md': 'ok2\n', 'é.md': 'x\n' },
      { from: 'main' },
    );
    await commitFiles(repo, 'main', { 'a b.md': 'main\n', 'é.md': 'y\n' });
    const before = await resolveRef(repo, 'main');
    const result = await squashMerge(repo, { branch: 'phase-1-strategic', message: 'Phase 1', identity });
    expect(result).toEqual({ ok: false, conflicts: ['a b.md', 'é.md'] });
    expect(await resolveRef(repo, 'main')).toBe(before);
  });

  it('makes no commit for a branch with nothing main lacks, and says so', async () => {
    const main = await commitFiles(repo, 'main', { 'a.md': 'a\n' });
    await gitText(repo, ['update-ref', 'refs/heads/phase-1-strategic', main]);
    expect(await squashMerge(repo, { branch: 'phase-1-strategic', message: 'Phase 1', identity })).toEqual({
      ok: true,
      commit: main,
      empty: true,
    });
    expect(await resolveRef(repo, 'main')).toBe(main);
  });

  it('refuses a missing branch, main itself, an empty message and an identity that sets more than author and committer', async () => {
    await expect(
      squashMerge(repo, { branch: 'phase-3-strategic', message: 'm', identity }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(squashMerge(repo, { branch: 'main', message: 'm', identity })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await commitFiles(repo, 'phase-1-strategic', { 'a.md': 'a\n' }, { from: 'main' });
    await expect(
      squashMerge(repo, { branch: 'phase-1-strategic', message: ' ', identity }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'message' },
    });
    await expect(
      squashMerge(repo, { branch: 'phase-1-strategic', message: 'm', identity: { GIT_DIR: '/elsewhere' } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'identity' } });
    await expect(squashMerge(repo, { branch: '--help', message: 'm', identity })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'branch' },
    });
  });

  it('gives one commit each when two merges of different branches race', async () => {
    await commitFiles(repo, 'phase-1-strategic', { 'one.md': '1\n' }, { from: 'main' });
    await commitFiles(repo, 'phase-2-strategic', { 'two.md': '2\n' }, { from: 'main' });
    const results = await Promise.all([
      squashMerge(repo, { branch: 'phase-1-strategic', message: 'one', identity }),
      squashMerge(repo, { branch: 'phase-2-strategic', message: 'two', identity }),
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await listFiles(repo, 'main')).files.map((file) => file.path)).toEqual(['one.md', 'two.md']);
    expect(await log(repo, 'main')).toHaveLength(3);
  });
});

function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `l${i + 1}\n`).join('');
}
