import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { E2e } from './harness.js';

const run = promisify(execFile);

/** What the agent reads back after a review asked for changes (`GET /v1/runs/:id` → resume.review). */
export interface ReviewFeedbackSeen {
  reviewId: string;
  branch: string;
  nextBranch: string;
  headCommit: string;
  comments: {
    id: string;
    path: string | null;
    line: number | null;
    body: string;
    authorName: string;
    resolved: boolean;
  }[];
}

/**
 * The agent's side of a phase review, scripted with the real `git` over the server's smart HTTP
 * and the API with the agent's token: a working clone, commits, pushes to phase branches,
 * checkpoints that name them, and reading the review's comments on resume.
 */
export class ReviewAgent {
  readonly dir: string;
  private constructor(
    private readonly env: E2e,
    readonly runId: string,
    readonly gitUrl: string,
    private readonly home: string,
  ) {
    this.dir = join(home, 'work');
  }

  /** Starts a run that freezes at every phase boundary and clones its empty workspace. */
  static async start(env: E2e, title: string): Promise<ReviewAgent> {
    const created = await env.http.call('POST', '/v1/runs', {
      token: env.agent.token,
      body: { title, autonomy: 'dependent' },
    });
    if (created.status !== 201 && created.status !== 200)
      throw new Error(`the run did not start: ${created.status} ${JSON.stringify(created.body)}`);
    const runId: string = created.body.run.id;
    await env.approvePlan(runId);
    const workspace = await env.http.call('GET', `/v1/runs/${runId}/workspace`, { token: env.agent.token });
    if (workspace.status !== 200) throw new Error(`no workspace: ${JSON.stringify(workspace.body)}`);
    const agent = new ReviewAgent(
      env,
      runId,
      workspace.body.gitUrl,
      mkdtempSync(join(tmpdir(), 'gh-agent-')),
    );
    await agent.git(['clone', '--quiet', agent.gitUrl, agent.dir], agent.home);
    return agent;
  }

  /** Runs git in the working clone as the agent, its token on every HTTP request. */
  async git(args: string[], cwd = this.dir): Promise<string> {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Bearer ${this.env.agent.token}`,
      GIT_AUTHOR_NAME: 'build-bot',
      GIT_AUTHOR_EMAIL: 'build-bot@agents.invalid',
      GIT_COMMITTER_NAME: 'build-bot',
      GIT_COMMITTER_EMAIL: 'build-bot@agents.invalid',
      LANG: 'C',
      LC_ALL: 'C',
    };
    try {
      const { stdout } = await run('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
      return stdout.trim();
    } catch (error) {
      const failed = error as { stderr?: string; message: string };
      throw new Error(`git ${args.join(' ')} failed: ${failed.stderr ?? failed.message}`, { cause: error });
    }
  }

  /** Writes files into the working clone and commits them. */
  async commit(files: Record<string, string | Buffer>, message: string): Promise<string> {
    for (const [path, text] of Object.entries(files)) {
      const full = join(this.dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
    await this.git(['add', '--', ...Object.keys(files)]);
    await this.git(['commit', '--quiet', '-m', message]);
    return this.git(['rev-parse', 'HEAD']);
  }

  read(path: string): string {
    return readFileSync(join(this.dir, path), 'utf8');
  }

  /** Starts `branch` from `from` (a commit or remote ref), fetched fresh. */
  async branch(branch: string, from: string): Promise<void> {
    await this.git(['fetch', '--quiet', 'origin']);
    await this.git(['checkout', '--quiet', '-B', branch, from]);
  }

  async push(branch: string): Promise<void> {
    await this.git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
  }

  /** Ends a phase on `branch`; answers the checkpoint (freeze, gate, review). */
  async checkpoint(body: {
    phase: number;
    type: 'strategic' | 'tactical';
    branch: string;
    retrospective?: string;
  }) {
    const answer = await this.env.http.call('POST', `/v1/runs/${this.runId}/checkpoint`, {
      token: this.env.agent.token,
      body: { jobComplete: false, ...body },
    });
    if (answer.status !== 200)
      throw new Error(`checkpoint refused: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as { freeze: boolean; gate: { id: string } | null; review: { id: string } | null };
  }

  /** The review feedback a resumed agent reads, or null while there is none. */
  async feedback(): Promise<ReviewFeedbackSeen | null> {
    const answer = await this.env.http.call('GET', `/v1/runs/${this.runId}`, { token: this.env.agent.token });
    return (answer.body.resume?.review as ReviewFeedbackSeen | undefined) ?? null;
  }

  /** Replies to a thread of the review as the agent. */
  async reply(reviewId: string, parentId: string, body: string): Promise<void> {
    const answer = await this.env.http.call('POST', `/v1/reviews/${reviewId}/comments`, {
      token: this.env.agent.token,
      body: { body, parentId },
    });
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`the reply was refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** The remote's branches, by name. */
  async remoteBranches(): Promise<Map<string, string>> {
    const lines = (await this.git(['ls-remote', '--heads', 'origin'])).split('\n').filter(Boolean);
    return new Map(
      lines.map((line) => {
        const [commit = '', ref = ''] = line.split('\t');
        return [ref.replace('refs/heads/', ''), commit];
      }),
    );
  }

  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}
