import { execFile, spawn } from 'node:child_process';
import type { FileChange } from 'gatehouse-hitl-analysis';

/** Git failed or the directory is not in a repository: exit code 3. */
export class GitError extends Error {
  override name = 'GitError';
}

/** What to compare: the staged changes, a range, or one commit against its first parent. */
export type GitTarget =
  | { kind: 'staged' }
  | { kind: 'range'; from: string; to: string; mergeBase: boolean }
  | { kind: 'commit'; rev: string };

// The object name of the empty tree, the same in every repository: the "before" of a first commit.
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const reason = stderr.trim().split('\n')[0] || error.message;
      reject(new GitError(`git ${args[0]} failed: ${reason}`));
    });
  });
}

async function revExists(cwd: string, rev: string): Promise<boolean> {
  return git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).then(
    () => true,
    () => false,
  );
}

async function commitOf(cwd: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new GitError(`'${rev}' is not a revision`);
  const out = await git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).catch(() => {
    throw new GitError(`unknown revision '${rev}' (not a commit in this repository)`);
  });
  return out.trim();
}

/** The two trees to compare, as `git show` revisions; `null` stands for the index. */
async function sides(cwd: string, target: GitTarget): Promise<{ before: string; after: string | null }> {
  switch (target.kind) {
    case 'staged':
      return { before: (await revExists(cwd, 'HEAD')) ? 'HEAD' : EMPTY_TREE, after: null };
    case 'range': {
      const from = await commitOf(cwd, target.from || 'HEAD');
      const to = await commitOf(cwd, target.to || 'HEAD');
      if (!target.mergeBase) return { before: from, after: to };
      const base = await git(cwd, ['merge-base', from, to]).catch(() => {
        throw new GitError(`${target.from}...${target.to} have no common ancestor`);
      });
      return { before: base.trim(), after: to };
    }
    case 'commit': {
      const rev = await commitOf(cwd, target.rev);
      const parent = (await revExists(cwd, `${rev}^1`)) ? `${rev}^1` : EMPTY_TREE;
      return { before: await commitOf(cwd, parent).catch(() => EMPTY_TREE), after: rev };
    }
  }
}

interface NameStatus {
  status: string;
  path: string;
  oldPath: string | null;
}

/** `git diff --name-status -z`: a status, then one path (two for renames and copies), NUL-separated. */
function parseNameStatus(out: string): NameStatus[] {
  const fields = out.split('\0');
  const entries: NameStatus[] = [];
  for (let i = 0; i + 1 < fields.length; ) {
    const status = fields[i] as string;
    if (status === '') break;
    if (status.startsWith('R') || status.startsWith('C')) {
      entries.push({
        status: status[0] as string,
        oldPath: fields[i + 1] as string,
        path: fields[i + 2] as string,
      });
      i += 3;
    } else {
      entries.push({ status, oldPath: null, path: fields[i + 1] as string });
      i += 2;
    }
  }
  return entries;
}

/** Reads many blobs with one `git cat-file --batch`; a name that is missing or no blob reads as null. */
function readBlobs(cwd: string, names: string[]): Promise<(Buffer | null)[]> {
  if (names.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error) => reject(new GitError(`git cat-file failed: ${error.message}`)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new GitError(`git cat-file failed: ${stderr.trim() || `exit ${code}`}`));
      resolve(splitBatch(Buffer.concat(chunks), names.length));
    });
    // A process that exits before reading its input closes the pipe: its exit code tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${names.join('\n')}\n`);
  });
}

function splitBatch(out: Buffer, count: number): (Buffer | null)[] {
  const blobs: (Buffer | null)[] = [];
  let at = 0;
  while (blobs.length < count) {
    const end = out.indexOf(10, at);
    if (end < 0) throw new GitError('git cat-file ended early');
    const header = out.subarray(at, end).toString().split(' ');
    at = end + 1;
    if (header.length < 3) {
      blobs.push(null);
      continue;
    }
    const size = Number(header[2]);
    blobs.push(header[1] === 'blob' ? out.subarray(at, at + size) : null);
    at += size + 1;
  }
  return blobs;
}

/** Git's own test for binary content: a NUL byte in the first 8000 bytes. */
function textOf(blob: Buffer | null): string | null | 'binary' {
  if (blob === null) return null;
  return blob.subarray(0, 8000).includes(0) ? 'binary' : blob.toString('utf8');
}

/**
 * The files of a git change with their whole contents before and after, so every parse is of a whole
 * file; binary files and submodules are left out.
 */
export async function changesFromGit(cwd: string, target: GitTarget): Promise<FileChange[]> {
  await git(cwd, ['rev-parse', '--git-dir']).catch(() => {
    throw new GitError(`${cwd} is not in a git repository`);
  });
  const { before, after } = await sides(cwd, target);
  const range = after === null ? ['--cached', before] : [before, after];
  const entries = parseNameStatus(
    await git(cwd, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...range, '--']),
  );
  const name = (rev: string | null, path: string) => `${rev ?? ''}:${path}`;
  const wanted = entries.flatMap((entry) => [
    entry.status === 'A' || entry.status === 'C' ? null : name(before, entry.oldPath ?? entry.path),
    entry.status === 'D' ? null : name(after, entry.path),
  ]);
  const blobs = await readBlobs(
    cwd,
    wanted.filter((n): n is string => n !== null),
  );
  let next = 0;
  const read = (wantedName: string | null) => (wantedName === null ? null : textOf(blobs[next++] ?? null));
  const changes: FileChange[] = [];
  for (const [index, entry] of entries.entries()) {
    const old = read(wanted[2 * index] ?? null);
    const now = read(wanted[2 * index + 1] ?? null);
    if (old === 'binary' || now === 'binary' || (old === null && now === null)) continue;
    changes.push({ path: entry.path, oldPath: entry.oldPath, before: old, after: now });
  }
  return changes;
}
