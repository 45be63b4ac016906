import { GatehouseError } from 'gatehouse-hitl-core';
import { repoPathSchema } from 'gatehouse-hitl-protocol';
import { type GitOptions, git, gitText } from './git.js';
import { MAIN_BRANCH } from './repos.js';

/** The tree with no files, which git knows without storing it. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;

/** Paths given to git are never patterns: `*` or `:(top)` in a name means that name. */
export const LITERAL_PATHS = { GIT_LITERAL_PATHSPECS: '1' } as const;

/** A path from a user, checked like the protocol's repoPathSchema; else VALIDATION_FAILED naming `field`. */
export function checkRepoPath(path: string, field = 'path'): string {
  const parsed = repoPathSchema.safeParse(path);
  if (!parsed.success) {
    throw new GatehouseError(
      'VALIDATION_FAILED',
      `${field}: must be a relative path inside the repository (no leading /, no . or .. parts, no .git)`,
      { field },
    );
  }
  return path;
}

/** A branch name or commit id safe to hand git: no leading `-`, no `..`, no revision syntax. */
export function checkRef(ref: string, field = 'ref'): string {
  const valid =
    REF.test(ref) &&
    !ref.includes('..') &&
    !ref.includes('//') &&
    !ref.endsWith('/') &&
    !ref.endsWith('.lock');
  if (!valid) {
    throw new GatehouseError(
      'VALIDATION_FAILED',
      `${field}: not a branch name or commit id (got ${JSON.stringify(ref.slice(0, 80))})`,
      {
        field,
      },
    );
  }
  return ref;
}

/** A branch name (never `refs/…`, never a leading `-`). */
export function checkBranch(branch: string, field = 'branch'): string {
  checkRef(branch, field);
  if (branch.startsWith('refs/') || branch === 'HEAD') {
    throw new GatehouseError('VALIDATION_FAILED', `${field}: give the branch name without refs/`, { field });
  }
  return branch;
}

/** The commit a branch name or commit id names; null when there is none. */
export async function resolveRef(repo: string, ref: string): Promise<string | null> {
  checkRef(ref);
  const result = await git(
    repo,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    {
      okCodes: [0, 1, 128],
    },
  );
  const id = result.stdout.toString('utf8').trim();
  return result.code === 0 && /^[0-9a-f]{40}$/.test(id) ? id : null;
}

/** Like resolveRef, but a missing ref is NOT_FOUND naming `field`. */
export async function requireCommit(repo: string, ref: string, field = 'ref'): Promise<string> {
  checkRef(ref, field);
  const id = await resolveRef(repo, ref);
  if (id === null)
    throw new GatehouseError('NOT_FOUND', `${field}: no branch or commit ${ref}`, { field, ref });
  return id;
}

/** Every branch and its head commit, by name. */
export async function listBranches(repo: string): Promise<{ name: string; head: string }[]> {
  const out = await gitText(repo, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']);
  if (out === '') return [];
  return out.split('\n').map((line) => {
    const space = line.indexOf(' ');
    return { name: line.slice(space + 1 + 'refs/heads/'.length), head: line.slice(0, space) };
  });
}

/** The best common ancestor of two refs; NOT_FOUND when one is missing or they share no history. */
export async function mergeBase(repo: string, a: string, b: string): Promise<string> {
  checkRef(a, 'base');
  checkRef(b, 'head');
  // One spawn on the hot path; which ref is missing is only worked out when it failed.
  const result = await git(repo, ['merge-base', a, b], { okCodes: [0, 1, 128] });
  const id = result.stdout.toString('utf8').trim();
  if (result.code === 0 && id !== '') return id;
  if (result.code === 128)
    await Promise.all([requireCommit(repo, a, 'base'), requireCommit(repo, b, 'head')]);
  throw new GatehouseError('NOT_FOUND', `${a} and ${b} share no history`, { base: a, head: b });
}

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  const [a, d] = await Promise.all([
    requireCommit(repo, ancestor, 'ancestor'),
    requireCommit(repo, descendant, 'descendant'),
  ]);
  const result = await git(repo, ['merge-base', '--is-ancestor', a, d], { okCodes: [0, 1] });
  return result.code === 0;
}

/** Deletes a branch (never main); a branch already gone is fine. */
export async function deleteBranch(repo: string, branch: string): Promise<void> {
  checkBranch(branch);
  if (branch === MAIN_BRANCH) {
    throw new GatehouseError('VALIDATION_FAILED', `branch: ${MAIN_BRANCH} cannot be deleted`, {
      field: 'branch',
    });
  }
  await git(repo, ['update-ref', '-d', `refs/heads/${branch}`]);
}

const IDENTITY_KEY = /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$/;

/** Only the author and committer variables of an identity reach git; anything else is refused. */
export function identityEnv(identity: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(identity)) {
    if (!IDENTITY_KEY.test(key)) {
      throw new GatehouseError(
        'VALIDATION_FAILED',
        `identity: ${key} is not an author or committer setting`,
        {
          field: 'identity',
        },
      );
    }
  }
  return { ...identity };
}

/** git with user paths taken literally. */
export function gitLiteral(repo: string, args: string[], options: GitOptions = {}) {
  return git(repo, args, { ...options, env: { ...LITERAL_PATHS, ...options.env } });
}
