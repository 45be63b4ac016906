import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type PhaseBranchSpec,
  parsePhaseBranch,
  phaseBranchName,
  previousRevision,
} from './workspace-branch.js';
import { gitEnvironment, pushRefusal, runGit, WorkspaceGitError } from './workspace-git.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-git-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('phase branch names', () => {
  it.each([
    [{ phase: 1, type: 'strategic' }, 'phase-1-strategic', 1],
    [{ phase: 1, type: 'strategic', revision: 1 }, 'phase-1-strategic', 1],
    [{ phase: 12, type: 'tactical', revision: 3 }, 'phase-12-tactical-rev-3', 3],
  ] satisfies [PhaseBranchSpec, string, number][])('names %o %s', (spec, name, revision) => {
    expect(phaseBranchName(spec)).toBe(name);
    expect(parsePhaseBranch(name)).toEqual({ name, phase: spec.phase, type: spec.type, revision });
  });

  it.each([
    [{ phase: 0, type: 'strategic' }, /phase must be a whole number from 1 to 99999 \(got 0\)/],
    [{ phase: 1.5, type: 'strategic' }, /phase must be a whole number/],
    [{ phase: 1, type: 'review' }, /type must be strategic or tactical \(got review\)/],
    [{ phase: 1, type: 'tactical', revision: 0 }, /revision must be a whole number from 1 to 9999 \(got 0\)/],
  ])('refuses %o, naming the field', (spec, message) => {
    expect(() => phaseBranchName(spec as never)).toThrow(message);
  });

  it('reads only phase branches back', () => {
    for (const name of [
      'main',
      'phase-0-strategic',
      'phase-1-strategy',
      'phase-1-tactical-rev-0',
      'x/phase-1-tactical',
    ]) {
      expect(parsePhaseBranch(name)).toBeNull();
    }
  });

  it('names the revision a revision answers', () => {
    expect(previousRevision({ phase: 2, type: 'tactical' })).toBeNull();
    expect(previousRevision({ phase: 2, type: 'tactical', revision: 2 })).toBe('phase-2-tactical');
    expect(previousRevision({ phase: 2, type: 'tactical', revision: 4 })).toBe('phase-2-tactical-rev-3');
  });
});

describe('the git environment', () => {
  it('carries the token as an HTTP header in the environment, never a prompt', () => {
    const env = gitEnvironment({ token: 'gha_secret' });
    const headers = Object.keys(env)
      .filter((key) => key.startsWith('GIT_CONFIG_KEY_'))
      .map((key) => [env[key], env[key.replace('KEY', 'VALUE')]]);
    expect(headers).toContainEqual(['http.extraHeader', 'Authorization: Bearer gha_secret']);
    expect(Number(env.GIT_CONFIG_COUNT)).toBe(headers.length);
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('drops inherited GIT_ variables that would point git at another repository', () => {
    process.env.GIT_DIR = '/elsewhere';
    try {
      expect(gitEnvironment().GIT_DIR).toBeUndefined();
      expect(gitEnvironment().PATH).toBe(process.env.PATH);
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('says plainly when git is not installed', async () => {
    const error = await runGit(['--version'], { env: { PATH: tempDir() } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceGitError);
    expect(error).toMatchObject({ failure: 'git_missing', exitCode: null });
    expect((error as Error).message).toMatch(/git was not found on PATH/);
  });

  it('fails with git’s own message', async () => {
    const error = await runGit(['rev-parse', '--git-dir'], { cwd: tempDir() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'failed', command: 'rev-parse', exitCode: 128 });
    expect((error as Error).message).toMatch(/not a git repository/);
  });
});

describe('push refusals', () => {
  it('keeps the lines that say why a push was refused', () => {
    const stderr = [
      'remote: Counting objects: 3',
      'remote: only phase branches may be pushed by the agent',
      'To http://127.0.0.1:7300/v1/runs/run_1/workspace.git',
      ' ! [remote rejected] HEAD -> main (pre-receive hook declined)',
      "error: failed to push some refs to 'http://127.0.0.1:7300/v1/runs/run_1/workspace.git'",
    ].join('\n');
    expect(pushRefusal(stderr)?.split('\n')).toEqual([
      'remote: only phase branches may be pushed by the agent',
      '! [remote rejected] HEAD -> main (pre-receive hook declined)',
      "error: failed to push some refs to 'http://127.0.0.1:7300/v1/runs/run_1/workspace.git'",
    ]);
    expect(pushRefusal('Everything up-to-date\n')).toBeNull();
  });

  it('types a refused non-fast-forward push as push_rejected', async () => {
    const root = tempDir();
    const bare = join(root, 'origin.git');
    const author = {
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@x',
    };
    await runGit(['init', '--quiet', '--bare', '--initial-branch', 'main', bare]);
    for (const name of ['one', 'two']) {
      await runGit(['clone', '--quiet', bare, join(root, name)]);
      await runGit(['commit', '--quiet', '--allow-empty', '-m', name], {
        cwd: join(root, name),
        env: author,
      });
    }
    await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/phase-1-strategic'], {
      cwd: join(root, 'one'),
    });
    const error = await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/phase-1-strategic'], {
      cwd: join(root, 'two'),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'push_rejected', command: 'push' });
    expect((error as Error).message).toMatch(/\[rejected\].*phase-1-strategic/);
  });
});
