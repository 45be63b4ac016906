import { GatehouseError } from 'gatehouse-hitl-core';
import type { AppContext } from './context.js';
import { loadRun } from './services/runs/run-records.js';
import { createRepoWithFiles, reposDirOf, type StartingFiles } from './workspace/repos.js';

/**
 * Creates a demo run's repository with the demo's sample project as `main`'s first commit, so the
 * agent's phase branches are changes to a project rather than its import. Only for a run nobody has
 * cloned or pushed to yet: a repository that exists is never rewritten (`409 CONFLICT`). For
 * `gatehouse serve --demo`, in the server's process; no route reaches it.
 */
export async function seedDemoWorkspace(
  ctx: Pick<AppContext, 'store' | 'config'>,
  runId: string,
  files: StartingFiles,
): Promise<void> {
  const run = await ctx.store.read((tx) => loadRun(tx, runId));
  if (!(await createRepoWithFiles(reposDirOf(ctx.config), run.id, files))) {
    throw new GatehouseError('CONFLICT', `the workspace of ${run.id} already exists`, { runId: run.id });
  }
}
