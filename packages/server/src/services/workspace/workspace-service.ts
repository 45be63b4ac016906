import type { AppContext } from '../../context.js';
import { createGitHosting, type GitHosting, type GitHostingDeps } from './git-hosting.js';

/** Each run's repository: hosted over git's smart HTTP, and browsed through the API. */
export interface WorkspaceService {
  git: GitHosting;
}

export type WorkspaceDeps = GitHostingDeps;

export function createWorkspaceService(ctx: AppContext, deps: WorkspaceDeps): WorkspaceService {
  return { git: createGitHosting(ctx, deps) };
}
