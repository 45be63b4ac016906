import { GatehouseError } from 'gatehouse-hitl-core';
import { git, gitText } from './git.js';
import { checkBranch, identityEnv, requireCommit } from './git-refs.js';
import { MAIN_BRANCH } from './repos.js';

/** How often a squash merge is recomputed when main moved while it was being made. */
const MERGE_ATTEMPTS = 3;

export type SquashResult = { ok: true; commit: string; empty: boolean } | { ok: false; conflicts: string[] };

/**
 * Squash-merges `branch` into main as one commit (git merge-tree --write-tree, commit-tree,
 * update-ref with the old value: atomic). Conflicts come back as the conflicting paths, main
 * untouched. A branch that changes nothing main lacks makes no commit: main is returned with `empty: true`.
 */
export async function squashMerge(
  repo: string,
  input: { branch: string; message: string; identity: Record<string, string> },
): Promise<SquashResult> {
  checkBranch(input.branch);
  const identity = identityEnv(input.identity);
  if (input.branch === MAIN_BRANCH) {
    throw new GatehouseError('VALIDATION_FAILED', `branch: ${MAIN_BRANCH} cannot be merged into itself`, {
      field: 'branch',
    });
  }
  if (input.message.trim() === '') {
    throw new GatehouseError('VALIDATION_FAILED', 'message: a squash commit needs a message', {
      field: 'message',
    });
  }
  const head = await requireCommit(repo, `refs/heads/${input.branch}`, 'branch');
  for (let attempt = 1; ; attempt++) {
    const main = await requireCommit(repo, `refs/heads/${MAIN_BRANCH}`, 'main');
    const merged = await mergeTrees(repo, main, head);
    if (!merged.ok) return merged;
    const mainTree = await gitText(repo, ['rev-parse', `${main}^{tree}`]);
    if (merged.tree === mainTree) return { ok: true, commit: main, empty: true };
    const commit = await gitText(repo, ['commit-tree', merged.tree, '-p', main, '-F', '-'], {
      env: identity,
      input: input.message,
    });
    // The old value makes the update fail if main moved since it was read: then merge again.
    const updated = await git(repo, ['update-ref', `refs/heads/${MAIN_BRANCH}`, commit, main], {
      okCodes: [0, 1, 128],
    });
    if (updated.code === 0) return { ok: true, commit, empty: false };
    if (attempt >= MERGE_ATTEMPTS) {
      throw new GatehouseError(
        'CONFLICT',
        `${MAIN_BRANCH} kept moving while ${input.branch} was merged; try again`,
        {
          branch: MAIN_BRANCH,
        },
      );
    }
  }
}

async function mergeTrees(
  repo: string,
  main: string,
  head: string,
): Promise<{ ok: true; tree: string } | { ok: false; conflicts: string[] }> {
  const result = await git(
    repo,
    [
      'merge-tree',
      '--write-tree',
      '-z',
      '--name-only',
      '--no-messages',
      '--allow-unrelated-histories',
      main,
      head,
    ],
    { okCodes: [0, 1] },
  );
  const [tree = '', ...names] = result.stdout.toString('utf8').split('\0');
  if (result.code === 0) return { ok: true, tree: tree.trim() };
  const conflicts = [...new Set(names.filter((name) => name !== ''))];
  return { ok: false, conflicts };
}
