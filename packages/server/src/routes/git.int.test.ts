import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mustGit, runGit, tempDir } from '../testing/git-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer } from '../testing/test-app.js';
import { gitText } from '../workspace/git.js';
import { ensureRepo, repoPathOf, reposDirOf } from '../workspace/repos.js';

const PUSH_LIMIT = 256 * 1024;
/** Far below a push: git bodies stream past the JSON body limit. */
const BODY_LIMIT = 16 * 1024;

describe('git smart HTTP', () => {
  let server: ListeningApp<{ now(): number }>;
  const dirs: Array<{ remove(): void }> = [];

  beforeAll(async () => {
    server = await startListeningApp({
      dialect: 'sqlite',
      config: { gitPushLimitBytes: PUSH_LIMIT, bodyLimit: BODY_LIMIT },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  async function newRun(token = server.test.tokens.agent): Promise<string> {
    const response = await server.test.app.inject({
      method: 'POST',
      url: '/v1/runs',
      headers: bearer(token),
      payload: {},
    });
    return (response.json() as { run: { id: string } }).run.id;
  }

  function urlOf(runId: string): string {
    return `${server.url}/v1/runs/${runId}/workspace.git`;
  }

  /** A clone of the run's workspace as `token`, with one commit on a new branch `branch`. */
  async function cloneWithCommit(runId: string, branch: string, token = server.test.tokens.agent) {
    const dir = tempDir();
    dirs.push(dir);
    await mustGit(['clone', '--quiet', urlOf(runId), 'work'], { cwd: dir.path, token });
    const work = join(dir.path, 'work');
    await mustGit(['checkout', '--quiet', '-b', branch], { cwd: work });
    writeFileSync(join(work, 'notes.md'), `# ${branch}\n`);
    await mustGit(['add', 'notes.md'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', `work on ${branch}`], { cwd: work });
    return work;
  }

  function ensureRunRepo(runId: string): Promise<string> {
    return ensureRepo(reposDirOf(server.test.config), runId);
  }

  function serverRepo(runId: string): string {
    return repoPathOf(reposDirOf(server.test.config), runId);
  }

  /** The repository's refs and every object it holds. */
  async function repoState(runId: string): Promise<{ refs: string; objects: string }> {
    const repo = serverRepo(runId);
    const refs = await gitText(repo, ['for-each-ref']);
    const objects = await gitText(repo, ['cat-file', '--batch-all-objects', '--batch-check']);
    return { refs, objects };
  }

  it('lets the run’s agent clone its workspace and push a phase branch, audited and announced', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    const pushed = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    expect(pushed.stderr).toContain('* [new branch]      phase-1-strategic -> phase-1-strategic');
    expect(pushed.code).toBe(0);
    const head = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
    expect(await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic'])).toBe(head);

    const audit = await server.test.services.audit.query({ subject: runId });
    const event = audit.items.find((item) => item.kind === 'workspace.pushed');
    expect(event?.actor).toBe(`agent:${server.test.ids.agentId}`);
    const refs = [{ ref: 'refs/heads/phase-1-strategic', branch: 'phase-1-strategic', old: null, new: head }];
    expect(event?.data).toEqual({ refs });
    const events = await server.test.store.listStreamEvents({ afterSeq: 0, runId });
    expect(events.filter((e) => e.type === 'workspace.pushed').map((e) => e.data)).toEqual([{ refs }]);

    // A second revision fast-forwards the branch.
    writeFileSync(join(work, 'notes.md'), '# phase 1\nmore\n');
    await mustGit(['commit', '--quiet', '-am', 'more'], { cwd: work });
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    const again = await server.test.services.audit.query({ subject: runId });
    expect(again.items.filter((item) => item.kind === 'workspace.pushed')).toHaveLength(2);
  });

  it.each([
    [
      'main',
      ['push', 'origin', 'HEAD:main'],
      ' ! [remote rejected] HEAD -> main (agents may push phase branches only)',
    ],
    [
      'a tag',
      ['push', 'origin', 'v1'],
      ' ! [remote rejected] v1 -> v1 (agents may push phase branches only)',
    ],
    ['another branch', ['push', 'origin', 'HEAD:feature'], '(agents may push phase branches only)'],
    [
      'a phase branch of an unknown type',
      ['push', 'origin', 'HEAD:phase-1-review'],
      '(agents may push phase branches only)',
    ],
  ])('refuses an agent’s push to %s, naming why, and keeps nothing', async (_label, args, printed) => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    await mustGit(['tag', 'v1'], { cwd: work });
    const before = await repoState(runId);
    const result = await runGit(args, { cwd: work, token: server.test.tokens.agent });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(printed);
    expect(await repoState(runId)).toEqual(before);
  });

  it('never runs a hook placed in the repository', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    const hooks = join(serverRepo(runId), 'hooks');
    const marker = join(hooks, 'ran');
    mkdirSync(hooks, { recursive: true });
    for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update']) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o755 });
    }
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses deleting a branch and a force push', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    const token = server.test.tokens.agent;
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], { cwd: work, token });
    const pushedHead = await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic']);

    const deleted = await runGit(['push', 'origin', '--delete', 'phase-1-strategic'], { cwd: work, token });
    expect(deleted.stderr).toContain('[remote rejected] phase-1-strategic (branches cannot be deleted here)');

    await mustGit(['commit', '--quiet', '--amend', '-m', 'rewritten'], { cwd: work });
    const forced = await runGit(['push', '--force', 'origin', 'phase-1-strategic'], { cwd: work, token });
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toMatch(
      /\[remote rejected\] phase-1-strategic -> phase-1-strategic \(non-fast-forward\)|denying non-fast-forward/,
    );
    expect(await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic'])).toBe(pushedHead);
  });

  it('hides a run from another agent and refuses its pushes', async () => {
    const runId = await newRun();
    const dir = tempDir();
    dirs.push(dir);
    const cloned = await runGit(['clone', urlOf(runId), 'work'], {
      cwd: dir.path,
      token: server.test.tokens.otherAgent,
    });
    expect(cloned.code).not.toBe(0);
    expect(cloned.stderr).toContain(`remote: no run ${runId} (NOT_FOUND)`);
    expect(cloned.stderr).toContain('not found');
    const pushed = await fetch(`${urlOf(runId)}/info/refs?service=git-receive-pack`, {
      headers: bearer(server.test.tokens.otherAgent),
    });
    expect(pushed.status).toBe(404);
  });

  it('asks for credentials with 401 and Basic, takes the token as a Basic password, refuses a wrong token', async () => {
    const runId = await newRun();
    const anonymous = await fetch(`${urlOf(runId)}/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Gatehouse"');

    const dir = tempDir();
    dirs.push(dir);
    const noCredentials = await runGit(['clone', urlOf(runId), 'a'], { cwd: dir.path, token: null });
    expect(noCredentials.code).not.toBe(0);
    expect(noCredentials.stderr).toMatch(/could not read Username|Authentication failed/);

    const wrong = await runGit(['clone', urlOf(runId), 'b'], { cwd: dir.path, token: 'gha_not_a_token' });
    expect(wrong.code).not.toBe(0);
    const refused = await fetch(`${urlOf(runId)}/info/refs?service=git-upload-pack`, {
      headers: bearer('gha_not_a_token'),
    });
    expect(refused.status).toBe(401);

    const basic = `Basic ${Buffer.from(`anyone:${server.test.tokens.viewer}`).toString('base64')}`;
    await mustGit(['clone', '--quiet', urlOf(runId), 'c'], { cwd: dir.path, authorization: basic });
    expect(await mustGit(['log', '--format=%s'], { cwd: join(dir.path, 'c') })).toBe(`Workspace of ${runId}`);
  });

  it('does not take HTTP Basic on the rest of the API', async () => {
    const basic = `Basic ${Buffer.from(`x:${server.test.tokens.admin}`).toString('base64')}`;
    const response = await fetch(`${server.url}/v1/runs`, { headers: { authorization: basic } });
    expect(response.status).toBe(401);
  });

  it('refuses people’s pushes while no review of the run is open, and a viewer’s outright', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic', server.test.tokens.developer);
    const developer = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.developer,
    });
    expect(developer.stderr).toContain(
      '(no review of this run is open; people push only to a branch under review)',
    );
    const viewer = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.viewer,
    });
    expect(viewer.stderr).toContain(
      'remote: pushing needs role developer or higher (you are viewer) (ROLE_TOO_LOW)',
    );
    expect(await gitText(serverRepo(runId), ['branch', '--list'])).toBe('* main');
  });

  it('lets a developer push the branch under review, and only that one, once a review is open', async () => {
    const runId = await newRun();
    await approveTestPlan(server.test, runId);
    const agentWork = await cloneWithCommit(runId, 'phase-1-strategic');
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], {
      cwd: agentWork,
      token: server.test.tokens.agent,
    });
    const checkpoint = await server.test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/checkpoint`,
      headers: bearer(server.test.tokens.agent),
      payload: { phase: 1, type: 'strategic', branch: 'phase-1-strategic' },
    });
    const review = (checkpoint.json() as { review: { id: string; status: string } }).review;
    expect(review.status).toBe('open');
    const summary = await server.test.app.inject({
      method: 'GET',
      url: `/v1/runs/${runId}/workspace`,
      headers: bearer(server.test.tokens.viewer),
    });
    expect((summary.json() as { openReviewId: string }).openReviewId).toBe(review.id);

    const token = server.test.tokens.developer;
    const dir = tempDir();
    dirs.push(dir);
    await mustGit(['clone', '--quiet', '--branch', 'phase-1-strategic', urlOf(runId), 'w'], {
      cwd: dir.path,
      token,
    });
    const work = join(dir.path, 'w');
    writeFileSync(join(work, 'notes.md'), '# edited by a person\n');
    await mustGit(['commit', '--quiet', '-am', 'a person’s edit'], { cwd: work });
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], { cwd: work, token });
    const head = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
    expect(await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic'])).toBe(head);
    const audit = await server.test.services.audit.query({ subject: runId, kind: 'workspace.pushed' });
    expect(audit.items.map((event) => event.actor)).toContain(`user:${server.test.ids.developerId}`);

    const other = await runGit(['push', 'origin', 'HEAD:phase-1-tactical'], { cwd: work, token });
    expect(other.stderr).toContain('(people may push only the branch under review (phase-1-strategic))');

    // While people review it, the agent cannot change what an approval would merge.
    await mustGit(['pull', '--quiet', '--ff-only', 'origin', 'phase-1-strategic'], {
      cwd: agentWork,
      token: server.test.tokens.agent,
    });
    writeFileSync(join(agentWork, 'notes.md'), '# slipped in after the review opened\n');
    await mustGit(['commit', '--quiet', '-am', 'late change'], { cwd: agentWork });
    const late = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: agentWork,
      token: server.test.tokens.agent,
    });
    expect(late.code).not.toBe(0);
    expect(late.stderr).toContain('phase-1-strategic is under review: wait for the decision');
    expect(await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic'])).toBe(head);
  });

  it('refuses pushes to a stopped run', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    const stopped = await server.test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/interventions`,
      headers: bearer(server.test.tokens.developer),
      payload: { kind: 'stop' },
    });
    expect(stopped.statusCode).toBe(200);
    const result = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('remote: the run is stopped and takes no more pushes (RUN_STOPPED)');
  });

  it('takes a push larger than the API’s JSON body limit but within the push limit', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    writeFileSync(join(work, 'noise.bin'), randomBytes(BODY_LIMIT * 4));
    await mustGit(['add', 'noise.bin'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'medium'], { cwd: work });
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    const head = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
    expect(await gitText(serverRepo(runId), ['rev-parse', 'refs/heads/phase-1-strategic'])).toBe(head);
  });

  it('refuses a push past the size limit with a clear message, keeping nothing', async () => {
    const runId = await newRun();
    const work = await cloneWithCommit(runId, 'phase-1-strategic');
    const before = await repoState(runId);
    writeFileSync(join(work, 'noise.bin'), randomBytes(PUSH_LIMIT * 2));
    await mustGit(['add', 'noise.bin'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'big'], { cwd: work });
    const result = await runGit(['push', 'origin', 'phase-1-strategic'], {
      cwd: work,
      token: server.test.tokens.agent,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`(push is larger than the ${PUSH_LIMIT} bytes limit)`);
    expect(await repoState(runId)).toEqual(before);
  });

  it.each([
    ['run_..', 400],
    ['run_a%2F..%2F..', 400],
    ['not-a-run', 400],
    ['run_missing', 404],
  ])('answers a bad run id %s in the URL without touching the disk', async (id, status) => {
    const response = await fetch(
      `${server.url}/v1/runs/${id}/workspace.git/info/refs?service=git-upload-pack`,
      {
        headers: bearer(server.test.tokens.admin),
      },
    );
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(readdirSync(reposDirOf(server.test.config)).filter((name) => !name.startsWith('run_0'))).toEqual([
      '.no-hooks',
    ]);
  });

  it('serves a fetch whose negotiation git sent gzip-compressed', async () => {
    const runId = await newRun();
    const head = await gitText(await ensureRunRepo(runId), ['rev-parse', 'main']);
    const negotiation = `0032want ${head}\n00000009done\n`;
    const response = await fetch(`${urlOf(runId)}/git-upload-pack`, {
      method: 'POST',
      headers: {
        ...bearer(server.test.tokens.agent),
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body: gzipSync(negotiation),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(body.subarray(8, 12).toString()).toBe('PACK');
  });

  it('refuses a POST that is not a git request', async () => {
    const runId = await newRun();
    const response = await fetch(`${urlOf(runId)}/git-receive-pack`, {
      method: 'POST',
      headers: { ...bearer(server.test.tokens.agent), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('content-type must be application/x-git-receive-pack-request');
    const garbage = await fetch(`${urlOf(runId)}/git-receive-pack`, {
      method: 'POST',
      headers: {
        ...bearer(server.test.tokens.agent),
        'content-type': 'application/x-git-receive-pack-request',
      },
      body: 'not pkt-lines at all',
    });
    expect(garbage.status).toBe(400);
    expect(await garbage.text()).toBe(
      'body: the push does not start with ref-update commands (VALIDATION_FAILED)\n',
    );
  });
});
