import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Gatehouse, Workspace as RunRepository } from 'gatehouse-hitl-sdk';
import { SAMPLE_PROJECT } from './sample-project.js';

/** The result of a shell command run in the workspace. */
export interface CommandResult {
  exitCode: number;
  output: string;
}

/** A phase branch to start: `phase-1-strategic`, `phase-2-tactical`, or a revision of one. */
export interface PhaseSpec {
  phase: number;
  type: 'strategic' | 'tactical';
  revision?: number;
}

/**
 * Where the scripted agent works: a clone of its run's repository hosted by Gatehouse, on which it
 * starts phase branches, commits and pushes them for review.
 */
export interface Workspace {
  readonly dir: string;
  /** False when git is not installed: the agent then works in plain files and checkpoints without branches. */
  readonly git: boolean;
  /**
   * Clones the run's repository into `dir`; true when main already holds the sample project,
   * false when the agent imports it on its first branch.
   */
  attach(gate: Gatehouse, runId: string): Promise<boolean>;
  /** Starts a phase branch (from the merged main, or the reviewed head for a revision); its name. */
  startPhase(spec: PhaseSpec): Promise<string | null>;
  write(path: string, content: string): Promise<void>;
  read(path: string): Promise<string>;
  run(command: string): Promise<CommandResult>;
  /** Commits every change in the agent's name; false when nothing changed. */
  commit(message: string): Promise<boolean>;
  /** Pushes the current phase branch to Gatehouse; null without git. */
  push(): Promise<{ branch: string; commit: string } | null>;
  close(): Promise<void>;
}

function exec(file: string, args: string[], cwd: string): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(file, args, { cwd, timeout: 120_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ exitCode: code, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** Keeps every path inside the workspace, whatever a steer or a script asks for. */
function inside(root: string, path: string): string {
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel.startsWith('..') || rel === '') throw new Error(`path ${path} is outside the workspace`);
  return full;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Creates an empty folder for the workspace; `attach` fills it with the run's repository. */
export async function createWorkspace(options: { keep?: boolean } = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-demo-'));
  const hasGit = (await exec('git', ['--version'], dir)).exitCode === 0;
  let repo: RunRepository | null = null;
  const cloned = () => {
    if (repo === null) throw new Error('the workspace is not attached to a run yet: call attach first');
    return repo;
  };
  const write = async (path: string, content: string) => {
    const full = inside(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  };
  return {
    dir,
    git: hasGit,
    async attach(gate, runId) {
      if (!hasGit) {
        for (const [path, content] of Object.entries(SAMPLE_PROJECT)) await write(path, content);
        return true;
      }
      repo = await gate.workspace(runId).clone(dir);
      return exists(join(dir, 'package.json'));
    },
    async startPhase(spec) {
      if (!hasGit) return null;
      // A new phase starts from main as merged (the reviewers' edits included), a revision from the reviewed head.
      return (await cloned().startPhaseBranch(spec)).branch;
    },
    write,
    read: (path) => readFile(inside(dir, path), 'utf8'),
    run: (command) => exec('sh', ['-c', command], dir),
    async commit(message) {
      if (!hasGit) return false;
      return (await cloned().commitAll(message)) !== null;
    },
    async push() {
      return hasGit ? cloned().push() : null;
    },
    async close() {
      if (!options.keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
