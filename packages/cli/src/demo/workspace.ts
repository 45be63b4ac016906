import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

/** The result of a shell command run in the workspace. */
export interface CommandResult {
  exitCode: number;
  output: string;
}

/** A throwaway project in a temp git repository, where the scripted agent does its work. */
export interface Workspace {
  readonly dir: string;
  /** False when git is not installed; the agent then works without commits. */
  readonly git: boolean;
  write(path: string, content: string): Promise<void>;
  run(command: string): Promise<CommandResult>;
  commit(message: string): Promise<void>;
  checkout(branch: string): Promise<void>;
  close(): Promise<void>;
}

const STARTER_FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'demo-project', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'README.md': '# demo-project\n\nTask: add a `slugify(title)` helper with tests.\n',
  'src/index.js': "export const greet = (name) => 'hello ' + name;\n",
  'build/bundle.js': '// stale build output\n',
};

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

/** Creates the workspace with a small starter project and an initial commit on main. */
export async function createWorkspace(options: { keep?: boolean } = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-demo-'));
  const git = async (...args: string[]) =>
    exec('git', ['-c', 'user.name=Demo Agent', '-c', 'user.email=agent@example.invalid', ...args], dir);
  const write = async (path: string, content: string) => {
    const full = inside(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  };
  for (const [path, content] of Object.entries(STARTER_FILES)) await write(path, content);
  const hasGit = (await git('init', '-q', '-b', 'main')).exitCode === 0;
  if (hasGit) {
    await git('add', '-A');
    await git('commit', '-q', '-m', 'Starter project');
  }
  return {
    dir,
    git: hasGit,
    write,
    run: (command) => exec('sh', ['-c', command], dir),
    async commit(message) {
      if (!hasGit) return;
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', message);
    },
    async checkout(branch) {
      if (hasGit) await git('checkout', '-q', '-B', branch);
    },
    async close() {
      if (!options.keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
