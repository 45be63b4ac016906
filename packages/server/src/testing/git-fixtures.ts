import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitText } from '../workspace/git.js';
import { serverIdentity } from '../workspace/repos.js';

/** A file's new content (text or bytes, optionally executable), or null to delete it. */
export type FixtureFile = string | Buffer | { content: string | Buffer; mode: '100644' | '100755' } | null;

const ZERO_ID = '0'.repeat(40);
let clock = 1_700_000_000;

/**
 * Commits `files` on top of `branch` (created from `from` when given) with plumbing only, as a test
 * builds a repository's history without a work tree. Returns the new commit.
 */
export async function commitFiles(
  repo: string,
  branch: string,
  files: Record<string, FixtureFile>,
  options: { from?: string; message?: string; identity?: Record<string, string> } = {},
): Promise<string> {
  const parent = await gitText(repo, [
    'rev-parse',
    '--verify',
    `${options.from ?? `refs/heads/${branch}`}^{commit}`,
  ]);
  const dir = await mkdtemp(join(tmpdir(), 'gh-fixture-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index'), GIT_LITERAL_PATHSPECS: '1' };
  try {
    await gitText(repo, ['read-tree', parent], { env });
    for (const [path, file] of Object.entries(files)) {
      if (file === null) {
        // mode 0 removes the entry; --force-remove would want a work tree.
        await gitText(repo, ['update-index', '-z', '--index-info'], {
          env,
          input: `0 ${ZERO_ID}\t${path}\0`,
        });
        continue;
      }
      const content = typeof file === 'string' || Buffer.isBuffer(file) ? file : file.content;
      const mode = typeof file === 'string' || Buffer.isBuffer(file) ? '100644' : file.mode;
      const blob = await gitText(repo, ['hash-object', '-w', '--stdin'], { input: content });
      await gitText(repo, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${path}`], { env });
    }
    const tree = await gitText(repo, ['write-tree'], { env });
    clock += 60;
    const commit = await gitText(
      repo,
      ['commit-tree', tree, '-p', parent, '-m', options.message ?? `change ${branch}`],
      {
        env: options.identity ?? serverIdentity(clock),
      },
    );
    await gitText(repo, ['update-ref', `refs/heads/${branch}`, commit]);
    return commit;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
