import { GatehouseError } from 'gatehouse-hitl-core';
import type {
  WorkspaceDiffResponse,
  WorkspaceFileResponse,
  WorkspaceFilesResponse,
  WorkspaceLogResponse,
  WorkspaceResponse,
  WorkspaceShowResponse,
} from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { diffRefs, listBranches, listFiles, log, readFile, show } from '../../workspace/git-ops.js';
import { requireCommit } from '../../workspace/git-refs.js';
import { ensureRepo, MAIN_BRANCH, reposDirOf } from '../../workspace/repos.js';
import { assertCanReadRun, loadRun } from '../runs/run-records.js';

/** Reading a run's repository through the API (the web app's and the review tools' file views). */
export interface WorkspaceBrowse {
  /** The clone URL, branches and open review; `origin` is the request's own, used without a public URL. */
  summary(principal: Principal, runId: string, origin: string): Promise<WorkspaceResponse>;
  files(
    principal: Principal,
    runId: string,
    query: { ref: string; path?: string },
  ): Promise<WorkspaceFilesResponse>;
  file(
    principal: Principal,
    runId: string,
    query: { ref: string; path: string },
  ): Promise<WorkspaceFileResponse>;
  log(
    principal: Principal,
    runId: string,
    query: { ref: string; path?: string; limit: number },
  ): Promise<WorkspaceLogResponse>;
  show(principal: Principal, runId: string, query: { commit: string }): Promise<WorkspaceShowResponse>;
  diff(
    principal: Principal,
    runId: string,
    query: { from: string; to: string; path?: string },
  ): Promise<WorkspaceDiffResponse>;
}

export interface WorkspaceBrowseDeps {
  /** The id of the run's open review, or null. */
  openReviewId(principal: Principal, runId: string): Promise<string | null>;
}

/** `path` only when given: git-ops options are exact. */
function pathOption(path: string | undefined): { path?: string } {
  return path === undefined ? {} : { path };
}

/** The clone URL of a run's repository on this server. */
export function gitUrlOf(publicUrl: string | null, origin: string, runId: string): string {
  return `${(publicUrl ?? origin).replace(/\/+$/, '')}/v1/runs/${runId}/workspace.git`;
}

export function createWorkspaceBrowse(ctx: AppContext, deps: WorkspaceBrowseDeps): WorkspaceBrowse {
  const reposDir = reposDirOf(ctx.config);

  /** The run's repository, once the caller may read the run (another agent's run is NOT_FOUND). */
  async function repoFor(principal: Principal, runId: string): Promise<string> {
    const run = await ctx.store.read((tx) => loadRun(tx, runId));
    assertCanReadRun(principal, run);
    return ensureRepo(reposDir, run.id);
  }

  return {
    async summary(principal, runId, origin) {
      const repo = await repoFor(principal, runId);
      const [branches, openReviewId] = await Promise.all([
        listBranches(repo),
        deps.openReviewId(principal, runId),
      ]);
      return {
        gitUrl: gitUrlOf(ctx.config.publicUrl, origin, runId),
        mainBranch: MAIN_BRANCH,
        branches,
        openReviewId,
      };
    },

    async files(principal, runId, query) {
      const repo = await repoFor(principal, runId);
      const commit = await requireCommit(repo, query.ref);
      const listed = await listFiles(repo, commit, query.path === undefined ? {} : { under: query.path });
      return { ref: query.ref, commit, ...listed };
    },

    async file(principal, runId, query) {
      const repo = await repoFor(principal, runId);
      const commit = await requireCommit(repo, query.ref);
      const file = await readFile(repo, commit, query.path);
      if (file === null) {
        throw new GatehouseError('NOT_FOUND', `path: no file ${query.path} at ${query.ref}`, {
          field: 'path',
          path: query.path,
        });
      }
      return { file };
    },

    async log(principal, runId, query) {
      const repo = await repoFor(principal, runId);
      const commits = await log(repo, query.ref, { limit: query.limit, ...pathOption(query.path) });
      return { commits };
    },

    async show(principal, runId, query) {
      const repo = await repoFor(principal, runId);
      await requireCommit(repo, query.commit, 'commit');
      return show(repo, query.commit);
    },

    async diff(principal, runId, query) {
      const repo = await repoFor(principal, runId);
      const result = await diffRefs(repo, query.from, query.to, pathOption(query.path));
      return { from: query.from, to: query.to, ...result };
    },
  };
}
