import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A work tree cloned from a run's bare repository, committing as one author and pushing back. */
export interface TestClone {
  dir: string;
  /** Runs git in the work tree and returns its output, trimmed. */
  git(...args: string[]): string;
  /** Writes files, commits them on the current branch and returns the new head. */
  commit(files: Record<string, string | Uint8Array>, message: string): string;
  push(branch: string): void;
  remove(): void;
}

function env(author: { name: string; email: string }): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
}

/** Clones `repo` (a bare repository path) and checks out `branch`, starting it from `from` when new. */
export function cloneRepo(
  repo: string,
  options: { author: { name: string; email: string }; branch: string; from?: string },
): TestClone {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-clone-'));
  const run = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env: env(options.author), encoding: 'utf8' }).trim();
  run('clone', '--quiet', repo, '.');
  const remote = run('branch', '-r', '--list', `origin/${options.branch}`);
  if (remote === '') run('checkout', '--quiet', '-b', options.branch, `origin/${options.from ?? 'main'}`);
  else run('checkout', '--quiet', '-B', options.branch, `origin/${options.branch}`);
  return {
    dir,
    git: run,
    commit(files, message) {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      run('add', '--all');
      run('commit', '--quiet', '-m', message);
      return run('rev-parse', 'HEAD');
    },
    push(branch) {
      run('push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `git` in a bare repository, trimmed output. */
export function bareGit(repo: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    env: env({ name: 't', email: 't@t' }),
    encoding: 'utf8',
  }).trim();
}
