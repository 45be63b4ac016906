import type { ReviewComment, ReviewFeedback, WorkspaceResponse } from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import type { Transport } from './http.js';
import {
  listReviewComments,
  postReviewComment,
  type RepliedComment,
  type ReviewCommentInput,
  readReviewFeedback,
  threadOf,
} from './review.js';
import {
  type PhaseBranchSpec,
  parsePhaseBranch,
  phaseBranchName,
  previousRevision,
} from './workspace-branch.js';
import { type GitOutput, runGit } from './workspace-git.js';

/** Who the agent's commits name as author (and committer). */
export interface GitAuthor {
  name: string;
  /** @default `<name>@agent.gatehouse.invalid` */
  email?: string | undefined;
}

/** Options of `Gatehouse.workspace`. */
export interface WorkspaceOptions {
  /** @default the agent's name, read from `GET /v1/me` */
  author?: GitAuthor | undefined;
}

/** What `Gatehouse.workspace` hands a Workspace: the client's transport and credentials. */
export interface WorkspaceContext {
  transport: Transport;
  url: string;
  token: string;
  runId: string;
  author?: GitAuthor | undefined;
}

/** Where a new phase branch starts: the merged main for a phase, the reviewed head for a revision. */
export interface StartPhaseBranchOptions extends PhaseBranchSpec {
  /** Start here instead (a commit id or `origin/<branch>`). */
  from?: string | undefined;
}

/**
 * A run's git workspace, cloned to a local directory: phase branches pushed to Gatehouse for review,
 * and the review's comments to answer. Needs Node.js and `git` on PATH.
 *
 * @example
 * const ws = await gate.workspace(runId).clone('/tmp/work');
 * await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
 * writeFileSync('/tmp/work/plan.md', '# Plan\n');
 * await ws.commitAll('plan: first draft');
 * const { branch } = await ws.push();
 * await gate.checkpoint({ runId, phase: 1, type: 'strategic', branch });
 */
export class Workspace {
  readonly runId: string;
  readonly #context: WorkspaceContext;
  #dir: string | null = null;
  #author: { name: string; email: string } | null = null;

  constructor(context: WorkspaceContext) {
    this.#context = context;
    this.runId = context.runId;
  }

  /** The local clone; throws before `clone` or `open`. */
  get dir(): string {
    if (this.#dir === null)
      throw new Error('the workspace is not cloned yet: call clone(dir) or open(dir) first');
    return this.#dir;
  }

  /** The run's repository as the server describes it: clone URL, branches, the open review. */
  info(options: { signal?: AbortSignal | undefined } = {}): Promise<WorkspaceResponse> {
    return this.#context.transport.route(
      lightRoutes.workspace.summary,
      { params: { id: this.runId } },
      { signal: options.signal, retry: 'always' },
    );
  }

  /**
   * Clones the run's repository into `dir` (new or empty) and checks out main.
   *
   * @example
   * const ws = await gate.workspace(runId).clone(join(tmpdir(), runId));
   */
  async clone(dir: string, options: { signal?: AbortSignal | undefined } = {}): Promise<this> {
    if (typeof dir !== 'string' || dir === '') throw new TypeError('dir must be a directory path');
    const { gitUrl, mainBranch } = await this.info(options);
    await this.#git(['clone', '--quiet', '--branch', mainBranch, '--', this.#cloneUrl(gitUrl), dir], {
      cwd: null,
    });
    this.#dir = dir;
    return this;
  }

  /**
   * Uses an existing clone of this run's repository (after a restart, say).
   *
   * @example
   * const ws = await gate.workspace(runId).open('/tmp/work');
   */
  async open(dir: string): Promise<this> {
    if (typeof dir !== 'string' || dir === '') throw new TypeError('dir must be a directory path');
    await this.#git(['rev-parse', '--git-dir'], { cwd: dir });
    await this.#git(['remote', 'get-url', 'origin'], { cwd: dir });
    this.#dir = dir;
    return this;
  }

  /**
   * Creates and checks out a phase branch: from the merged main for a new phase, from the reviewed
   * head (the people's commits included) for a revision; returns its name and start commit.
   *
   * @example
   * await ws.startPhaseBranch({ phase: 1, type: 'strategic', revision: 2 }); // phase-1-strategic-rev-2
   */
  async startPhaseBranch(options: StartPhaseBranchOptions): Promise<{ branch: string; base: string }> {
    const branch = phaseBranchName(options);
    await this.#git(['fetch', '--quiet', '--prune', 'origin']);
    const from = options.from ?? (await this.#startOf(options, branch));
    const base = (await this.#git(['rev-parse', '--verify', '--quiet', `${from}^{commit}`])).stdout.trim();
    await this.#git(['checkout', '--quiet', '-B', branch, base]);
    return { branch, base };
  }

  /**
   * Stages every change (new, edited and deleted files) and commits it in the agent's name;
   * returns the commit id, or null when nothing changed.
   *
   * @example
   * const commit = await ws.commitAll('plan: answer the review');
   */
  async commitAll(message: string): Promise<string | null> {
    if (typeof message !== 'string' || message.trim() === '') {
      throw new TypeError('message must be a non-empty string: the commit message');
    }
    await this.#git(['add', '--all']);
    const staged = await this.#git(['diff', '--cached', '--quiet'], { okCodes: [0, 1] });
    if (staged.exitCode === 0) return null;
    await this.#git(['commit', '--quiet', '--message', message], { env: await this.#authorEnv() });
    return (await this.#git(['rev-parse', 'HEAD'])).stdout.trim();
  }

  /**
   * Pushes the current phase branch (fast-forward only); a refusal throws WorkspaceGitError with
   * `failure: 'push_rejected'` and the server's reason.
   *
   * @example
   * const { branch, commit } = await ws.push();
   */
  async push(): Promise<{ branch: string; commit: string }> {
    const branch = await this.currentBranch();
    if (parsePhaseBranch(branch) === null) {
      throw new TypeError(`the current branch ${branch} is not a phase branch: call startPhaseBranch first`);
    }
    await this.#git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
    const commit = (await this.#git(['rev-parse', 'HEAD'])).stdout.trim();
    return { branch, commit };
  }

  /**
   * Fetches and switches to the merged main (after a review merged the phase); returns its commit.
   *
   * @example
   * await ws.checkoutMain(); // plan.md as the reviewers left it
   */
  async checkoutMain(): Promise<string> {
    const { mainBranch } = await this.info();
    await this.#git(['fetch', '--quiet', '--prune', 'origin']);
    await this.#git(['checkout', '--quiet', '-B', mainBranch, `origin/${mainBranch}`]);
    return (await this.#git(['rev-parse', 'HEAD'])).stdout.trim();
  }

  /** The branch checked out. */
  async currentBranch(): Promise<string> {
    return (await this.#git(['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
  }

  /**
   * After a review asked for changes: the comments (file, line, author, body, resolved), the reviewed
   * head and the branch to push the answer to; null when there is nothing to answer.
   *
   * @example
   * const feedback = await ws.reviewFeedback();
   * for (const c of feedback?.comments ?? []) if (c.parentId === null && !c.resolved) answer(c);
   */
  reviewFeedback(options: { signal?: AbortSignal | undefined } = {}): Promise<ReviewFeedback | null> {
    return readReviewFeedback(this.#context.transport, this.runId, options.signal);
  }

  /**
   * A review's comments, oldest first.
   *
   * @example
   * const open = (await ws.reviewComments(reviewId)).filter((c) => c.parentId === null && !c.resolved);
   */
  reviewComments(
    reviewId: string,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<ReviewComment[]> {
    return listReviewComments(this.#context.transport, reviewId, options.signal);
  }

  /**
   * Answers a comment's thread.
   *
   * @example
   * await ws.reply(comment, 'Done: the plan now names the risk.');
   */
  reply(
    comment: RepliedComment,
    body: string,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<ReviewComment> {
    return postReviewComment(
      this.#context.transport,
      comment.reviewId,
      { body, parentId: threadOf(comment) },
      options.signal,
    );
  }

  /**
   * Starts a thread on a review: general, on a file, or on a line.
   *
   * @example
   * await ws.comment(reviewId, { body: 'Split this step?', path: 'plan.md', line: 4 });
   */
  comment(
    reviewId: string,
    input: ReviewCommentInput,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<ReviewComment> {
    return postReviewComment(this.#context.transport, reviewId, input, options.signal);
  }

  /** A revision starts at the reviewed head the resume names, else at the revision before it. */
  async #startOf(spec: PhaseBranchSpec, branch: string): Promise<string> {
    const previous = previousRevision(spec);
    if (previous === null) return `origin/${(await this.info()).mainBranch}`;
    const feedback = await this.reviewFeedback();
    if (feedback !== null && feedback.nextBranch === branch) return feedback.headCommit;
    return `origin/${previous}`;
  }

  #cloneUrl(gitUrl: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(gitUrl)) return gitUrl;
    return `${this.#context.url.replace(/\/+$/, '')}/${gitUrl.replace(/^\/+/, '')}`;
  }

  async #authorEnv(): Promise<Record<string, string>> {
    if (this.#author === null) {
      const name = this.#context.author?.name ?? (await this.#agentName());
      const email =
        this.#context.author?.email ??
        `${name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}@agent.gatehouse.invalid`;
      this.#author = { name, email };
    }
    const { name, email } = this.#author;
    return {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
    };
  }

  async #agentName(): Promise<string> {
    const me = await this.#context.transport.route(lightRoutes.auth.me, {}, { retry: 'always' });
    return me.kind === 'agent' ? me.agent.name : me.user.name;
  }

  /** Runs git in the clone (or `cwd`; null: the current directory), with the token for the remote. */
  #git(
    args: string[],
    options: { cwd?: string | null; okCodes?: number[]; env?: Record<string, string> } = {},
  ): Promise<GitOutput> {
    const cwd = options.cwd === undefined ? this.dir : (options.cwd ?? undefined);
    return runGit(args, { cwd, token: this.#context.token, okCodes: options.okCodes, env: options.env });
  }
}
