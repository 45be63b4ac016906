import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { git, gitText } from './git.js';

/** The branch every phase branch starts from and merges into. */
export const MAIN_BRANCH = 'main';

const RUN_ID = /^run_[A-Za-z0-9_]{1,64}$/;

/** Where the runs' repositories live: GATEHOUSE_REPOS_DIR, else `repos` in the data directory. */
export function reposDirOf(config: Pick<ServerConfig, 'reposDir' | 'dataDir'>): string {
  return config.reposDir ?? join(config.dataDir, 'repos');
}

/** The bare repository of a run's workspace (it may not exist yet). */
export function repoPathOf(reposDir: string, runId: string): string {
  if (!RUN_ID.test(runId)) throw new Error(`not a run id: ${runId}`);
  return join(reposDir, `${runId}.git`);
}

/** The empty folder set as every repository's hooks path, so no hook from a repository ever runs. */
export function noHooksDir(reposDir: string): string {
  return join(reposDir, '.no-hooks');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Files of a repository's first commit, by path: the sample project of a demo run. */
export type StartingFiles = Readonly<Record<string, string>>;

/**
 * The run's repository, created on first use with one empty commit on `main`. It is built in a
 * temporary folder and renamed into place, so two nodes creating it at once both end with the same
 * complete repository (the loser's copy is dropped).
 */
export async function ensureRepo(reposDir: string, runId: string): Promise<string> {
  const path = repoPathOf(reposDir, runId);
  if (await exists(join(path, 'HEAD'))) return path;
  await buildRepo(reposDir, runId, {});
  return path;
}

/**
 * Creates the run's repository with `files` in the first commit on `main`, before anyone used it;
 * false (and nothing changed) when the repository already exists.
 */
export async function createRepoWithFiles(
  reposDir: string,
  runId: string,
  files: StartingFiles,
): Promise<boolean> {
  if (await exists(join(repoPathOf(reposDir, runId), 'HEAD'))) return false;
  return buildRepo(reposDir, runId, files);
}

/** Builds the repository aside and renames it into place; false when another copy got there first. */
async function buildRepo(reposDir: string, runId: string, files: StartingFiles): Promise<boolean> {
  const path = repoPathOf(reposDir, runId);
  await mkdir(noHooksDir(reposDir), { recursive: true });
  const building = join(reposDir, `.new-${runId}-${randomBytes(6).toString('hex')}.git`);
  try {
    await mkdir(building, { recursive: true });
    await git(building, ['init', '--quiet', '--bare', `--initial-branch=${MAIN_BRANCH}`, '--template=']);
    await writeFile(join(building, 'config'), repoConfig(reposDir), { flag: 'a' });
    const tree = await treeOf(building, files);
    const commit = await gitText(building, ['commit-tree', tree, '-m', `Workspace of ${runId}`], {
      env: serverIdentity(Object.keys(files).length === 0 ? 0 : Date.now() / 1000),
    });
    await git(building, ['update-ref', `refs/heads/${MAIN_BRANCH}`, commit]);
    return await rename(building, path).then(
      () => true,
      async (error: NodeJS.ErrnoException) => {
        if (!(await exists(join(path, 'HEAD')))) throw error;
        return false;
      },
    );
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/** The tree of `files`, written through an index file of the repository being built. */
async function treeOf(repo: string, files: StartingFiles): Promise<string> {
  const entries = Object.entries(files);
  if (entries.length === 0) return gitText(repo, ['mktree'], { input: '' });
  const env = { GIT_INDEX_FILE: join(repo, 'starting-index') };
  for (const [path, text] of entries) {
    const blob = await gitText(repo, ['hash-object', '-w', '--stdin'], { input: text });
    await git(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
  }
  const tree = await gitText(repo, ['write-tree'], { env });
  await rm(env.GIT_INDEX_FILE, { force: true });
  return tree;
}

function repoConfig(reposDir: string): string {
  return [
    '[core]',
    `\thooksPath = ${noHooksDir(reposDir)}`,
    '[receive]',
    '\tdenyNonFastForwards = true',
    '\tdenyDeletes = true',
    '\tfsckObjects = true',
    '[http]',
    '\treceivepack = true',
    '[gc]',
    '\tauto = 0',
    '',
  ].join('\n');
}

/** Author and committer for commits Gatehouse makes itself (the first commit, squash merges). */
export function serverIdentity(atSeconds: number): Record<string, string> {
  const date = `@${Math.floor(atSeconds)} +0000`;
  return {
    GIT_AUTHOR_NAME: 'Gatehouse',
    GIT_AUTHOR_EMAIL: 'gatehouse@localhost',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'Gatehouse',
    GIT_COMMITTER_EMAIL: 'gatehouse@localhost',
    GIT_COMMITTER_DATE: date,
  };
}

/** Author and committer for a person's or an agent's commit made through the API. */
export function personIdentity(name: string, atMs: number): Record<string, string> {
  const date = `@${Math.floor(atMs / 1000)} +0000`;
  const email = `${name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}@gatehouse.invalid`;
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: date,
  };
}
