import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { runGit } from './workspace-git.js';

/** A stand-in for the API's JSON routes; the repository is a real bare one on disk. */
interface FakeApi {
  routes: Record<string, unknown>;
  requests: { method: string; path: string; body: unknown }[];
}

let root: string;
let api: FakeApi;

function client(): Gatehouse {
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname + new URL(String(url)).search;
    const method = init?.method ?? 'GET';
    api.requests.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = api.routes[`${method} ${path}`];
    if (answer === undefined) {
      const error = { error: { code: 'NOT_FOUND', message: `no route ${method} ${path}`, details: {} } };
      return new Response(JSON.stringify(error), { status: 404 });
    }
    return new Response(JSON.stringify(answer), { status: 200 });
  };
  return new Gatehouse({
    url: 'http://gatehouse.test/',
    token: 'gha_test',
    fetch: fetch as typeof globalThis.fetch,
  });
}

const git = async (cwd: string, ...args: string[]) => (await runGit(args, { cwd })).stdout.trim();
const comment = (id: string, parentId: string | null = null) => ({ id, reviewId: 'rev_1', parentId });

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-ws-'));
  const bare = join(root, 'origin.git');
  await runGit(['init', '--quiet', '--bare', '--initial-branch', 'main', bare]);
  const seed = join(root, 'seed');
  await runGit(['clone', '--quiet', bare, seed]);
  const env = {
    GIT_AUTHOR_NAME: 'Gatehouse',
    GIT_AUTHOR_EMAIL: 'g@x',
    GIT_COMMITTER_NAME: 'G',
    GIT_COMMITTER_EMAIL: 'g@x',
  };
  await runGit(['commit', '--quiet', '--allow-empty', '-m', 'workspace'], { cwd: seed, env });
  await runGit(['push', '--quiet', 'origin', 'main'], { cwd: seed });
  api = {
    requests: [],
    routes: {
      'GET /v1/runs/run_1/workspace': {
        gitUrl: `file://${bare}`,
        mainBranch: 'main',
        branches: [],
        openReviewId: null,
      },
      'GET /v1/me': { kind: 'agent', agent: { id: 'agent_1', name: 'Planner Bot' } },
      'GET /v1/runs/run_1': { run: { id: 'run_1' }, resume: null },
    },
  };
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the workspace helpers', () => {
  it('clones, commits in the agent’s name, pushes the phase branch and returns to the merged main', async () => {
    const ws = await client().workspace('run_1').clone(join(root, 'work'));
    expect(await ws.startPhaseBranch({ phase: 1, type: 'strategic' })).toEqual({
      branch: 'phase-1-strategic',
      base: await git(join(root, 'origin.git'), 'rev-parse', 'main'),
    });
    writeFileSync(join(ws.dir, 'plan.md'), '# Plan\n');
    const commit = await ws.commitAll('plan: first draft');
    expect(await ws.commitAll('nothing new')).toBeNull();
    expect(await git(ws.dir, 'log', '-1', '--format=%an <%ae>|%cn|%s')).toBe(
      'Planner Bot <planner-bot@agent.gatehouse.invalid>|Planner Bot|plan: first draft',
    );
    expect(await ws.push()).toEqual({ branch: 'phase-1-strategic', commit });
    expect(await git(join(root, 'origin.git'), 'rev-parse', 'phase-1-strategic')).toBe(commit);
    // The server's squash merge, as a person would see it on main.
    const seed = join(root, 'seed');
    writeFileSync(join(seed, 'plan.md'), '# Plan (merged)\n');
    await runGit(['add', '.'], { cwd: seed });
    const env = {
      GIT_AUTHOR_NAME: 'G',
      GIT_AUTHOR_EMAIL: 'g@x',
      GIT_COMMITTER_NAME: 'G',
      GIT_COMMITTER_EMAIL: 'g@x',
    };
    await runGit(['commit', '--quiet', '-m', 'Phase 1'], { cwd: seed, env });
    await runGit(['push', '--quiet', 'origin', 'main', ':phase-1-strategic'], { cwd: seed });
    const main = await ws.checkoutMain();
    expect(await ws.currentBranch()).toBe('main');
    expect(main).toBe(await git(seed, 'rev-parse', 'HEAD'));
    expect(readFileSync(join(ws.dir, 'plan.md'), 'utf8')).toBe('# Plan (merged)\n');
  });

  it('starts a revision at the reviewed head the resume names, people’s commits included', async () => {
    const ws = await client()
      .workspace('run_1', { author: { name: 'Agent', email: 'agent@x' } })
      .clone(join(root, 'work'));
    await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
    writeFileSync(join(ws.dir, 'plan.md'), 'one\n');
    await ws.commitAll('plan');
    await ws.push();
    const person = join(root, 'person');
    await runGit(['clone', '--quiet', '--branch', 'phase-1-strategic', join(root, 'origin.git'), person]);
    writeFileSync(join(person, 'plan.md'), 'one, edited by a person\n');
    const env = {
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'a@x',
    };
    await runGit(['commit', '--quiet', '-am', 'edit'], { cwd: person, env });
    await runGit(['push', '--quiet', 'origin', 'phase-1-strategic'], { cwd: person });
    const headCommit = await git(person, 'rev-parse', 'HEAD');
    const feedback = {
      reviewId: 'rev_1',
      branch: 'phase-1-strategic',
      nextBranch: 'phase-1-strategic-rev-2',
      headCommit,
      comments: [],
    };
    api.routes['GET /v1/runs/run_1'] = { run: { id: 'run_1' }, resume: { review: feedback } };

    expect(await ws.reviewFeedback()).toEqual(feedback);
    expect(await ws.startPhaseBranch({ phase: 1, type: 'strategic', revision: 2 })).toEqual({
      branch: 'phase-1-strategic-rev-2',
      base: headCommit,
    });
    expect(readFileSync(join(ws.dir, 'plan.md'), 'utf8')).toBe('one, edited by a person\n');
    expect(api.requests.some((r) => r.path === '/v1/me')).toBe(false);
  });

  it('refuses to push a branch that is not a phase branch', async () => {
    const ws = await client().workspace('run_1').clone(join(root, 'work'));
    await expect(ws.push()).rejects.toThrow(
      /the current branch main is not a phase branch: call startPhaseBranch first/,
    );
  });

  it('refuses bad arguments before touching git or the server', async () => {
    const gate = client();
    expect(() => gate.workspace('')).toThrow(/runId/);
    const ws = gate.workspace('run_1');
    expect(() => ws.dir).toThrow(/call clone\(dir\) or open\(dir\) first/);
    await expect(ws.clone('')).rejects.toThrow(/dir must be a directory path/);
    await expect(ws.open(join(root, 'nothing-here'))).rejects.toMatchObject({ name: 'WorkspaceGitError' });
    await ws.clone(join(root, 'work'));
    await expect(ws.commitAll('  ')).rejects.toThrow(/message must be a non-empty string/);
    await expect(ws.startPhaseBranch({ phase: 0, type: 'strategic' })).rejects.toThrow(/phase must be/);
    await expect(ws.reply(comment('cmt_1'), '')).rejects.toThrow(/body must be a non-empty string/);
    await expect(ws.comment('rev_1', { body: 'x', line: 3 })).rejects.toThrow(/path is required with line/);
    await expect(ws.comment('rev_1', { body: 'x', path: 'a.md', line: 0 })).rejects.toThrow(
      /line must be a whole number/,
    );
    await expect(gate.journal('run_1').append([])).rejects.toThrow(/at least one entry/);
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('replies to a comment’s thread and reads comments and the journal', async () => {
    api.routes['POST /v1/reviews/rev_1/comments'] = { comment: comment('cmt_9', 'cmt_1') };
    api.routes['GET /v1/reviews/rev_1/comments'] = { items: [comment('cmt_1')] };
    api.routes['POST /v1/runs/run_1/journal'] = { count: 1, ids: ['jrn_1'] };
    api.routes['GET /v1/runs/run_1/journal?kind=note&limit=5'] = { items: [], nextCursor: null };
    const gate = client();
    const ws = gate.workspace('run_1');
    await ws.reply(comment('cmt_2', 'cmt_1'), 'Done.');
    await ws.comment('rev_1', { body: 'See line 3', path: 'plan.md', line: 3 });
    expect(await ws.reviewComments('rev_1')).toEqual([comment('cmt_1')]);
    expect(await gate.journal('run_1').append({ kind: 'note', data: { text: 'hi' } })).toEqual(['jrn_1']);
    expect(await gate.journal('run_1').list({ kind: 'note', limit: 5 })).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { body: 'Done.', parentId: 'cmt_1' },
      { body: 'See line 3', path: 'plan.md', line: 3 },
      { entries: [{ kind: 'note', data: { text: 'hi' } }] },
    ]);
  });
});
