import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the real git client printed and how it ended. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitClientOptions {
  cwd: string;
  /** Sent as `Authorization: Bearer …` through GIT_CONFIG_* variables: never in argv or on disk. */
  token?: string | null;
  /** A whole `Authorization` header value instead (`Basic …`). */
  authorization?: string;
  env?: Record<string, string>;
}

/**
 * Runs the real `git` client as an agent or a person would, with no user configuration and no
 * prompts; the credential travels in the environment only.
 */
export function runGit(args: string[], options: GitClientOptions): Promise<GitRun> {
  const header = options.authorization ?? (options.token ? `Bearer ${options.token}` : undefined);
  const auth: Record<string, string> =
    header === undefined
      ? { GIT_CONFIG_COUNT: '0' }
      : {
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: 'http.extraHeader',
          GIT_CONFIG_VALUE_0: `Authorization: ${header}`,
        };
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.cwd,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'Test Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.test',
    GIT_COMMITTER_NAME: 'Test Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.test',
    ...auth,
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Like `runGit`, but a failure throws with git's own words. */
export async function mustGit(args: string[], options: GitClientOptions): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) {
    throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  }
  return result.stdout.trim();
}

/** A temporary folder for a clone; `remove()` deletes it. */
export function tempDir(prefix = 'gatehouse-git-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
