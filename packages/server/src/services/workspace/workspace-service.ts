import type { AppContext } from '../../context.js';
import type { ReviewService } from '../reviews/review-service.js';
import { createGitHosting, type GitHosting, type GitHostingDeps } from './git-hosting.js';
import { createWorkspaceBrowse, type WorkspaceBrowse, type WorkspaceBrowseDeps } from './workspace-browse.js';

/** Each run's repository: hosted over git's smart HTTP, and browsed through the API. */
export interface WorkspaceService extends WorkspaceBrowse {
  git: GitHosting;
}

/** What the workspace needs from the reviews: which branch people may push, which review is open. */
export type WorkspaceDeps = GitHostingDeps & WorkspaceBrowseDeps;

/** Reviews are not wired in: people's pushes are refused and no review is open. */
export const NO_REVIEWS: WorkspaceDeps = {
  openBranch: async () => null,
  frozenBranch: async () => null,
  openReviewId: async () => null,
};

/** The workspace's view of the reviews: the branch under review, and the review still waiting on people or the agent. */
export function reviewsForWorkspace(
  reviews: Pick<ReviewService, 'list' | 'openBranch' | 'frozenBranch'>,
): WorkspaceDeps {
  return {
    openBranch: (runId) => reviews.openBranch(runId),
    frozenBranch: (runId) => reviews.frozenBranch(runId),
    async openReviewId(principal, runId) {
      const open = (await reviews.list(principal, runId)).filter(
        (review) => review.status === 'open' || review.status === 'changes_requested',
      );
      return open.at(-1)?.id ?? null;
    },
  };
}

export function createWorkspaceService(ctx: AppContext, deps: WorkspaceDeps): WorkspaceService {
  return { ...createWorkspaceBrowse(ctx, deps), git: createGitHosting(ctx, deps) };
}
