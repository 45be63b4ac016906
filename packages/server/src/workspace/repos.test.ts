import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitText } from './git.js';
import { ensureRepo, MAIN_BRANCH, repoPathOf } from './repos.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gh-repos-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ensureRepo', () => {
  it('creates a bare repository whose main branch holds one empty commit, and no hooks', async () => {
    const path = await ensureRepo(dir, 'run_abc');
    expect(path).toBe(repoPathOf(dir, 'run_abc'));
    expect(await gitText(path, ['rev-parse', '--is-bare-repository'])).toBe('true');
    expect(await gitText(path, ['rev-list', '--count', MAIN_BRANCH])).toBe('1');
    expect(await gitText(path, ['ls-tree', MAIN_BRANCH])).toBe('');
    expect(await gitText(path, ['config', 'receive.denyNonFastForwards'])).toBe('true');
    expect(await gitText(path, ['config', 'core.hooksPath'])).toContain('.no-hooks');
  });

  it('ends with one complete repository when created many times at once', async () => {
    const paths = await Promise.all(Array.from({ length: 6 }, () => ensureRepo(dir, 'run_same')));
    expect(new Set(paths).size).toBe(1);
    expect(await gitText(paths[0] as string, ['rev-list', '--count', MAIN_BRANCH])).toBe('1');
    expect((await readdir(dir)).sort()).toEqual(['.no-hooks', 'run_same.git']);
  });

  it('refuses a run id that could leave the folder', () => {
    expect(() => repoPathOf(dir, '../etc')).toThrow(/not a run id/);
  });
});
