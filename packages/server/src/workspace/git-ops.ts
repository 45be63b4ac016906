import { GatehouseError } from 'gatehouse-hitl-core';
import type { CommitDocument, FileContent, FileDiff } from 'gatehouse-hitl-protocol';
import { decodeText } from './blob-text.js';
import { diffCommits } from './git-diff.js';
import { checkRepoPath, EMPTY_TREE, gitLiteral, requireCommit } from './git-refs.js';

export { decodeText } from './blob-text.js';
export { commitFile } from './commit-file.js';
export { changedFiles, DEFAULT_DIFF_MAX_BYTES, diffRefs, fileDiff } from './git-diff.js';
export {
  checkBranch,
  checkRef,
  checkRepoPath,
  deleteBranch,
  isAncestor,
  listBranches,
  mergeBase,
  resolveRef,
} from './git-refs.js';
export { squashMerge } from './merge.js';

/** The largest file readFile returns as text. */
export const DEFAULT_FILE_MAX_BYTES = 5 * 1024 * 1024;
/** The most files one listFiles answer holds. */
export const DEFAULT_LIST_LIMIT = 5000;

interface TreeEntry {
  mode: string;
  type: string;
  id: string;
  size: number;
  path: string;
}

/** `git ls-tree -z -l` records: `<mode> <type> <id> <size>\t<path>\0`. */
function parseTree(output: Buffer): TreeEntry[] {
  const records = output.toString('utf8').split('\0');
  return records
    .filter((record) => record !== '')
    .map((record) => {
      const tab = record.indexOf('\t');
      const [mode = '', type = '', id = '', size = '-'] = record.slice(0, tab).split(/ +/);
      return { mode, type, id, size: size === '-' ? 0 : Number(size), path: record.slice(tab + 1) };
    });
}

/** The tree entry at `path` in `commit`, or null. */
export async function treeEntry(repo: string, commit: string, path: string): Promise<TreeEntry | null> {
  const result = await gitLiteral(repo, ['ls-tree', '-z', '-l', '--full-tree', commit, '--', path]);
  return parseTree(result.stdout).find((entry) => entry.path === path) ?? null;
}

/** A file at a commit; null when it does not exist there; binary or non-UTF-8 → binary: true, text: null. */
export async function readFile(
  repo: string,
  commit: string,
  path: string,
  options: { maxBytes?: number } = {},
): Promise<FileContent | null> {
  checkRepoPath(path);
  const id = await requireCommit(repo, commit, 'commit');
  const entry = await treeEntry(repo, id, path);
  if (entry === null || entry.type !== 'blob') return null;
  const maxBytes = options.maxBytes ?? DEFAULT_FILE_MAX_BYTES;
  if (entry.size > maxBytes) {
    throw new GatehouseError(
      'PAYLOAD_TOO_LARGE',
      `path: ${path} is ${entry.size} bytes, over the ${maxBytes}-byte limit`,
      {
        field: 'path',
        size: entry.size,
        limit: maxBytes,
      },
    );
  }
  const blob = (await gitLiteral(repo, ['cat-file', 'blob', entry.id])).stdout;
  const text = decodeText(blob);
  return { path, commit: id, binary: text === null, size: entry.size, text };
}

/** Files (not folders) at a commit, optionally under one folder, with their sizes. */
export async function listFiles(
  repo: string,
  commit: string,
  options: { under?: string; limit?: number } = {},
): Promise<{ files: { path: string; size: number }[]; truncated: boolean }> {
  if (options.under !== undefined) checkRepoPath(options.under, 'path');
  const id = await requireCommit(repo, commit, 'commit');
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  const args = ['ls-tree', '-r', '-z', '-l', '--full-tree', id];
  if (options.under !== undefined) args.push('--', options.under);
  const entries = parseTree((await gitLiteral(repo, args)).stdout).filter((entry) => entry.type === 'blob');
  const files = entries.slice(0, limit).map((entry) => ({ path: entry.path, size: entry.size }));
  return { files, truncated: entries.length > limit };
}

const LOG_FORMAT = '--format=%H%x00%P%x00%an%x00%ae%x00%at%x00%s%x00%b';
const LOG_FIELDS = 7;

function parseLog(output: Buffer): CommitDocument[] {
  const fields = output.toString('utf8').split('\0');
  const commits: CommitDocument[] = [];
  for (let index = 0; index + LOG_FIELDS <= fields.length; index += LOG_FIELDS) {
    const [commit = '', parents = '', authorName = '', authorEmail = '', at = '0', subject = '', body = ''] =
      fields.slice(index, index + LOG_FIELDS);
    commits.push({
      commit: commit.trim(),
      parents: parents === '' ? [] : parents.split(' '),
      authorName,
      authorEmail,
      authoredAt: Number(at) * 1000,
      subject,
      body: body.trim(),
    });
  }
  return commits;
}

/** Commits reachable from `ref`, newest first, optionally only those touching `path`. */
export async function log(
  repo: string,
  ref: string,
  options: { path?: string; limit?: number } = {},
): Promise<CommitDocument[]> {
  if (options.path !== undefined) checkRepoPath(options.path);
  const id = await requireCommit(repo, ref);
  const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
  const args = ['log', '-z', LOG_FORMAT, `--max-count=${limit}`, '--no-color', id];
  if (options.path !== undefined) args.push('--', options.path);
  return parseLog((await gitLiteral(repo, args)).stdout);
}

/** A commit and its changes against its first parent (against nothing for the first commit). */
export async function show(
  repo: string,
  commit: string,
): Promise<{ commit: CommitDocument; files: FileDiff[] }> {
  const [document] = await log(repo, commit, { limit: 1 });
  if (!document) throw new GatehouseError('NOT_FOUND', `commit: no commit ${commit}`, { field: 'commit' });
  const parent = document.parents[0] ?? EMPTY_TREE;
  const { files } = await diffCommits(repo, parent, document.commit);
  return { commit: document, files };
}
