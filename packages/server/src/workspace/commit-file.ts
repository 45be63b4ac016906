import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatehouseError } from 'gatehouse-hitl-core';
import { gitText } from './git.js';
import {
  checkBranch,
  checkRepoPath,
  gitLiteral,
  identityEnv,
  LITERAL_PATHS,
  resolveRef,
} from './git-refs.js';
import { MAIN_BRANCH } from './repos.js';

const COMMIT_ID = /^[0-9a-f]{40}$/;

function moved(branch: string, expectedHead: string, head: string | null): GatehouseError {
  return new GatehouseError(
    'CONFLICT',
    `branch ${branch} moved since the edit began (now ${head ?? 'gone'}); reload the file and edit again`,
    { branch, expectedHead, head },
  );
}

/**
 * Commits one file's new text on `branch` as `identity`, only if the branch is still at
 * `expectedHead` (else throws GatehouseError CONFLICT). Returns the new commit. An existing file
 * keeps its mode (an executable stays executable); text equal to the file's makes no commit and
 * returns `expectedHead`.
 */
export async function commitFile(
  repo: string,
  input: {
    branch: string;
    path: string;
    text: string;
    message: string;
    identity: Record<string, string>;
    expectedHead: string;
  },
): Promise<string> {
  const { branch, path, expectedHead } = input;
  checkBranch(branch);
  checkRepoPath(path);
  const identity = identityEnv(input.identity);
  if (branch === MAIN_BRANCH) {
    throw new GatehouseError('VALIDATION_FAILED', `branch: edits go to a phase branch, not ${MAIN_BRANCH}`, {
      field: 'branch',
    });
  }
  if (!COMMIT_ID.test(expectedHead)) {
    throw new GatehouseError('VALIDATION_FAILED', 'expectedHead: a commit id is 40 lowercase hex digits', {
      field: 'expectedHead',
    });
  }
  if (input.message.trim() === '') {
    throw new GatehouseError('VALIDATION_FAILED', 'message: a commit needs a message', { field: 'message' });
  }
  const head = await resolveRef(repo, `refs/heads/${branch}`);
  if (head !== expectedHead) throw moved(branch, expectedHead, head);
  const mode = await fileMode(repo, head, path);
  const blob = await gitText(repo, ['hash-object', '-w', '--stdin'], { input: input.text });
  const indexDir = await mkdtemp(join(tmpdir(), 'gatehouse-index-'));
  try {
    const env = { ...LITERAL_PATHS, GIT_INDEX_FILE: join(indexDir, 'index') };
    await gitText(repo, ['read-tree', head], { env });
    await gitLiteral(repo, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${path}`], {
      env,
    }).catch((error: unknown) => {
      throw new GatehouseError(
        'VALIDATION_FAILED',
        `path: ${path} cannot be written (a folder on the way is a file)`,
        {
          field: 'path',
          cause: String(error),
        },
      );
    });
    const tree = await gitText(repo, ['write-tree'], { env });
    if (tree === (await gitText(repo, ['rev-parse', `${head}^{tree}`]))) return head;
    const commit = await gitText(repo, ['commit-tree', tree, '-p', head, '-F', '-'], {
      env: identity,
      input: input.message,
    });
    const updated = await gitLiteral(repo, ['update-ref', `refs/heads/${branch}`, commit, head], {
      okCodes: [0, 1, 128],
    });
    if (updated.code !== 0) throw moved(branch, expectedHead, await resolveRef(repo, `refs/heads/${branch}`));
    return commit;
  } finally {
    await rm(indexDir, { recursive: true, force: true });
  }
}

/** The mode to write with: an existing file's own (100644 or 100755), else 100644. */
async function fileMode(repo: string, head: string, path: string): Promise<string> {
  const entry = (await gitLiteral(repo, ['ls-tree', '-z', '--full-tree', head, '--', path])).stdout.toString(
    'utf8',
  );
  const [meta = ''] = entry.split('\t');
  const [mode = '', type = ''] = meta.split(' ');
  if (entry === '' || mode === '100644' || mode === '100755') return mode || '100644';
  throw new GatehouseError(
    'VALIDATION_FAILED',
    `path: ${path} is a ${type === 'tree' ? 'folder' : 'link or module'}, not a file`,
    {
      field: 'path',
    },
  );
}
