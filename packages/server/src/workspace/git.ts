import { spawn } from 'node:child_process';
import { GatehouseError } from 'gatehouse-hitl-core';

/** What a git command printed and how it ended. */
export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export interface GitOptions {
  /** Extra environment (GIT_AUTHOR_NAME, GIT_INDEX_FILE, …), on top of a clean one. */
  env?: Record<string, string>;
  input?: Buffer | string;
  /** Exit codes that are answers rather than failures (merge-tree's 1, say). @default [0] */
  okCodes?: number[];
  /** Stop reading after this many bytes of output. @default 64 MiB */
  maxOutputBytes?: number;
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * The environment every git command runs with: no user or system configuration, no prompts,
 * no hooks or templates from outside, so a repository behaves the same on every node.
 */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LANG: 'C',
    LC_ALL: 'C',
    ...extra,
  };
}

/** Runs `git <args>` in `cwd` (a bare repository, usually); fails with the command's own message. */
export function git(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const okCodes = options.okCodes ?? [0];
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnvironment(options.env), stdio: 'pipe' });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (size >= maxOutput) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) =>
      reject(new GatehouseError('SERVICE_UNAVAILABLE', `git could not start: ${error.message}`)),
    );
    child.on('close', (code) => {
      const result = { stdout: Buffer.concat(chunks), stderr, code: code ?? -1 };
      if (okCodes.includes(result.code)) return resolve(result);
      const message = stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${result.code}`;
      reject(new GitCommandError(args[0] ?? 'git', result.code, message));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A git command that failed; the message is git's own last lines. */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number,
    message: string,
  ) {
    super(`git ${command} failed: ${message}`);
    this.name = 'GitCommandError';
  }
}

/** `git <args>` and its output as trimmed UTF-8 text. */
export async function gitText(cwd: string, args: string[], options: GitOptions = {}): Promise<string> {
  return (await git(cwd, args, options)).stdout.toString('utf8').trim();
}
