import { GatehouseError } from 'gatehouse-hitl-core';
import type { FileDiff, ReviewFile } from 'gatehouse-hitl-protocol';
import { nonTextBlobs, textFlags } from './blob-text.js';
import { parsePatchBuffer, parseRawNumstat, type RawChange } from './diff-parse.js';
import { checkRepoPath, gitLiteral, mergeBase, requireCommit } from './git-refs.js';

/** The most diff text read for one file before it is cut and marked truncated. */
export const DEFAULT_DIFF_MAX_BYTES = 2 * 1024 * 1024;
/** The most files one diffRefs answer holds. */
export const DEFAULT_MAX_FILES = 300;

const DIFF_FLAGS = ['-r', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--full-index'];

/** The changed files; line counts only with `counts` (they cost a diff of every file). */
async function rawChanges(
  repo: string,
  from: string,
  to: string,
  options: { path?: string; counts?: boolean } = {},
): Promise<RawChange[]> {
  const counts = options.counts ? ['--numstat'] : [];
  const args = ['diff-tree', '-z', '--raw', ...counts, ...DIFF_FLAGS, from, to];
  if (options.path !== undefined) args.push('--', options.path);
  const result = await gitLiteral(repo, args);
  return parseRawNumstat(result.stdout, options.counts);
}

function blobIdsOf(changes: RawChange[]): string[] {
  return changes.filter(({ file }) => !file.binary).flatMap((change) => [change.oldId, change.newId]);
}

/** Marks as binary, without counts, the files either side of which is binary or not UTF-8. */
function markBinary(changes: RawChange[], nonText: Set<string>): void {
  for (const { file, oldId, newId } of changes) {
    if (!nonText.has(oldId) && !nonText.has(newId)) continue;
    file.binary = true;
    file.added = 0;
    file.removed = 0;
  }
}

async function markNonText(repo: string, changes: RawChange[]): Promise<void> {
  markBinary(changes, await nonTextBlobs(repo, blobIdsOf(changes)));
}

async function patchOf(
  repo: string,
  from: string,
  to: string,
  paths: string[],
  maxBytes: number,
): Promise<{ files: FileDiff[]; cut: boolean }> {
  const args = ['diff-tree', '-p', ...DIFF_FLAGS, from, to, '--', ...paths];
  const result = await gitLiteral(repo, args, { maxOutputBytes: maxBytes + 1 });
  const cut = result.stdout.length > maxBytes;
  return { files: parsePatchBuffer(cut ? result.stdout.subarray(0, maxBytes) : result.stdout, cut), cut };
}

/** Names from the NUL-separated listing are exact; the patch's own headers may be quoted or ambiguous. */
function withListedNames(diff: FileDiff, listed: ReviewFile): FileDiff {
  const binary = diff.binary || listed.binary;
  return {
    path: listed.path,
    oldPath: listed.oldPath,
    status: listed.status,
    binary,
    hunks: binary ? [] : diff.hunks,
    truncated: diff.truncated,
  };
}

function emptyDiff(file: ReviewFile, truncated: boolean): FileDiff {
  return {
    path: file.path,
    oldPath: file.oldPath,
    status: file.status,
    binary: file.binary,
    hunks: [],
    truncated,
  };
}

/** How a diff's old side is found: merge-base(base, head) (a PR's view), or `base` itself (two heads compared). */
export interface DiffFrom {
  exact?: boolean;
}

function fromOf(repo: string, base: string, head: string, options: DiffFrom): Promise<string> {
  return options.exact ? requireCommit(repo, base, 'base') : mergeBase(repo, base, head);
}

/**
 * Files changed between merge-base(base, head) and head (a PR's view), or between base and head
 * (`exact`), renames detected, numstat counts; binary and non-UTF-8 files flagged binary, without counts.
 */
export async function changedFiles(
  repo: string,
  base: string,
  head: string,
  options: DiffFrom = {},
): Promise<ReviewFile[]> {
  const [from, to] = await Promise.all([
    fromOf(repo, base, head, options),
    requireCommit(repo, head, 'head'),
  ]);
  // Counting lines and reading the blobs both take a while: the cheap listing lets them run side by side.
  const [changes, nonText] = await Promise.all([
    rawChanges(repo, from, to, { counts: true }),
    rawChanges(repo, from, to).then((listed) => nonTextBlobs(repo, blobIdsOf(listed))),
  ]);
  markBinary(changes, nonText);
  return changes.map((change) => change.file);
}

/**
 * One file's diff from merge-base(base, head) (or base, `exact`) to head, parsed into hunks with old/new line numbers.
 * A file the branch did not change answers `unchanged`; a path that is no file of the branch, NOT_FOUND.
 */
export async function fileDiff(
  repo: string,
  base: string,
  head: string,
  path: string,
  options: { maxBytes?: number } & DiffFrom = {},
): Promise<FileDiff> {
  checkRepoPath(path);
  const maxBytes = options.maxBytes ?? DEFAULT_DIFF_MAX_BYTES;
  const [from, to] = await Promise.all([
    fromOf(repo, base, head, options),
    requireCommit(repo, head, 'head'),
  ]);
  // A rename is only found with both names in the pathspec: the listing says whether to diff again.
  // Meanwhile both sides are checked for text by path, which holds unless the file was renamed.
  const [all, first, sides] = await Promise.all([
    rawChanges(repo, from, to),
    patchOf(repo, from, to, [path], maxBytes),
    textFlags(repo, [`${from}:${path}`, `${to}:${path}`]),
  ]);
  const change = all.find(({ file }) => file.path === path);
  if (!change) return unchangedFile(repo, to, path);
  const listed = change.file;
  if (listed.oldPath !== null || path.includes('\n')) {
    const [second] = await Promise.all([
      patchOf(repo, from, to, [listed.oldPath ?? path, path], maxBytes),
      markNonText(repo, [change]),
    ]);
    return diffOf(listed, second);
  }
  if (sides.includes(false)) markBinary([change], new Set([change.oldId, change.newId]));
  return diffOf(listed, first);
}

function diffOf(listed: ReviewFile, { files, cut }: { files: FileDiff[]; cut: boolean }): FileDiff {
  const diff = files.find((file) => file.path === listed.path) ?? files[0];
  if (!diff) return emptyDiff(listed, cut);
  return { ...withListedNames(diff, listed), truncated: diff.truncated || cut };
}

async function unchangedFile(repo: string, commit: string, path: string): Promise<FileDiff> {
  const entry = (
    await gitLiteral(repo, ['ls-tree', '-z', '--full-tree', commit, '--', path])
  ).stdout.toString('utf8');
  if (!/^\d+ blob /.test(entry)) {
    throw new GatehouseError('NOT_FOUND', `path: ${path} is neither changed nor in the branch`, {
      field: 'path',
      path,
    });
  }
  return { path, oldPath: null, status: 'unchanged', binary: false, hunks: [], truncated: false };
}

/**
 * The diff between two refs as they are (no merge base), optionally under one path; at most
 * `maxFiles` files, each cut at `maxBytes`.
 */
export async function diffRefs(
  repo: string,
  from: string,
  to: string,
  options: { path?: string; maxFiles?: number; maxBytes?: number } = {},
): Promise<{ files: FileDiff[]; truncated: boolean }> {
  if (options.path !== undefined) checkRepoPath(options.path);
  const [a, b] = await Promise.all([requireCommit(repo, from, 'from'), requireCommit(repo, to, 'to')]);
  return diffCommits(repo, a, b, options);
}

/** diffRefs on two resolved commits or trees. */
export async function diffCommits(
  repo: string,
  from: string,
  to: string,
  options: { path?: string; maxFiles?: number; maxBytes?: number } = {},
): Promise<{ files: FileDiff[]; truncated: boolean }> {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const maxBytes = options.maxBytes ?? DEFAULT_DIFF_MAX_BYTES;
  const listed = await rawChanges(repo, from, to, options.path === undefined ? {} : { path: options.path });
  const kept = listed.slice(0, maxFiles);
  if (kept.length === 0) return { files: [], truncated: false };
  const paths = kept.flatMap(({ file }) => (file.oldPath === null ? [file.path] : [file.oldPath, file.path]));
  // One patch for all files, read up to a budget of maxBytes per file.
  const [{ files, cut }] = await Promise.all([
    patchOf(repo, from, to, paths, maxBytes * Math.min(kept.length, 8)),
    markNonText(repo, kept),
  ]);
  const diffs = kept.map(({ file }, index): FileDiff => {
    const diff =
      files.length === kept.length ? files[index] : files.find((parsed) => parsed.path === file.path);
    return diff ? withListedNames(diff, file) : emptyDiff(file, cut);
  });
  return { files: diffs, truncated: listed.length > kept.length || cut };
}
