/** Why a git command did not do its job. */
export type WorkspaceGitFailure = 'git_missing' | 'failed' | 'push_rejected';

/**
 * A git command that failed; `message` and `stderr` carry git's own words (for a refused push, the
 * server's reason).
 *
 * @example
 * try { await ws.push(); } catch (error) { if (error instanceof WorkspaceGitError) log(error.stderr); }
 */
export class WorkspaceGitError extends Error {
  readonly failure: WorkspaceGitFailure;
  /** The git subcommand: `push`, `fetch`, `commit`… */
  readonly command: string;
  /** Null when git did not start. */
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(options: {
    failure: WorkspaceGitFailure;
    command: string;
    exitCode: number | null;
    stderr: string;
    message: string;
  }) {
    super(options.message);
    this.name = 'WorkspaceGitError';
    this.failure = options.failure;
    this.command = options.command;
    this.exitCode = options.exitCode;
    this.stderr = options.stderr;
  }
}

/** What one git command printed. */
export interface GitOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunGitOptions {
  cwd?: string | undefined;
  /** Sent as `Authorization: Bearer …` to the remote, through the environment only. */
  token?: string | undefined;
  /** Extra variables, e.g. the author's GIT_AUTHOR_NAME. */
  env?: Record<string, string> | undefined;
  /** Exit codes that are answers rather than failures. @default [0] */
  okCodes?: number[] | undefined;
}

/** The part of `node:child_process` the helpers use, so the SDK needs no Node typings. */
interface ChildProcessLike {
  stdout: { on(event: 'data', listener: (chunk: Uint8Array) => void): void };
  stderr: { on(event: 'data', listener: (chunk: Uint8Array) => void): void };
  on(event: 'error', listener: (error: Error & { code?: string }) => void): void;
  on(event: 'close', listener: (code: number | null) => void): void;
}
type Spawn = (
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; stdio: ['ignore', 'pipe', 'pipe'] },
) => ChildProcessLike;

let spawnPromise: Promise<Spawn> | null = null;

/** Loads `child_process` on first use, so importing the SDK stays fine in browsers and edge runtimes. */
function loadSpawn(): Promise<Spawn> {
  const specifier = 'node:child_process';
  spawnPromise ??= (import(/* @vite-ignore */ specifier) as Promise<{ spawn: Spawn }>).then(
    (module) => module.spawn,
    (error: unknown) => {
      spawnPromise = null;
      throw new WorkspaceGitError({
        failure: 'git_missing',
        command: 'git',
        exitCode: null,
        stderr: '',
        message: `workspace helpers run git and need Node.js (node:child_process did not load: ${String(error)})`,
      });
    },
  );
  return spawnPromise;
}

/**
 * The variables git runs with: the caller's, minus any GIT_* that could point it elsewhere, no
 * prompts, no signing, and the token as an HTTP header that never reaches argv or disk.
 */
export function gitEnvironment(options: Pick<RunGitOptions, 'token' | 'env'> = {}): Record<string, string> {
  const inherited = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited ?? {})) {
    if (value !== undefined && !key.startsWith('GIT_')) env[key] = value;
  }
  const config: [string, string][] = [
    ['commit.gpgSign', 'false'],
    ['core.hooksPath', '/dev/null'],
  ];
  if (options.token !== undefined)
    config.push(['http.extraHeader', `Authorization: Bearer ${options.token}`]);
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return { ...env, ...options.env };
}

/** The lines a refused push printed that say why (`! [remote rejected] …`, `remote: …`, `error: …`). */
export function pushRefusal(stderr: string): string | null {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^!|\[(remote )?rejected\]|^remote: (?!Counting|Compressing|Total)|^error:/.test(line))
    .filter((line) => line !== 'remote:');
  return lines.length > 0 ? lines.join('\n') : null;
}

/** Runs `git <args>`; fails with a WorkspaceGitError carrying git's own message. */
export async function runGit(args: string[], options: RunGitOptions = {}): Promise<GitOutput> {
  const spawn = await loadSpawn();
  const command = args.find((arg) => !arg.startsWith('-')) ?? 'git';
  const okCodes = options.okCodes ?? [0];
  return new Promise((resolve, reject) => {
    const spawnOptions = {
      env: gitEnvironment(options),
      stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    };
    const child = spawn(
      'git',
      args,
      options.cwd === undefined ? spawnOptions : { ...spawnOptions, cwd: options.cwd },
    );
    const out = new TextDecoder();
    const err = new TextDecoder();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += out.decode(chunk, { stream: true });
    });
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 65_536) stderr += err.decode(chunk, { stream: true });
    });
    child.on('error', (error) => {
      const missing = error.code === 'ENOENT';
      reject(
        new WorkspaceGitError({
          failure: missing ? 'git_missing' : 'failed',
          command,
          exitCode: null,
          stderr: '',
          message: missing
            ? 'git was not found on PATH: install git to use the workspace helpers'
            : `git ${command} could not start: ${error.message}`,
        }),
      );
    });
    child.on('close', (code) => {
      const exitCode = code ?? -1;
      if (okCodes.includes(exitCode)) return resolve({ stdout, stderr, exitCode });
      reject(failureOf(command, exitCode, stderr));
    });
  });
}

function failureOf(command: string, exitCode: number, stderr: string): WorkspaceGitError {
  const refusal = command === 'push' ? pushRefusal(stderr) : null;
  const said = refusal ?? (stderr.trim().split('\n').slice(-3).join('\n') || `exit code ${exitCode}`);
  return new WorkspaceGitError({
    failure: refusal === null ? 'failed' : 'push_rejected',
    command,
    exitCode,
    stderr,
    message: `git ${command} failed: ${said}`,
  });
}
