import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceResponse } from 'gatehouse-hitl-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitUrlOf } from '../services/workspace/workspace-browse.js';
import { mustGit, tempDir } from '../testing/git-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { bearer } from '../testing/test-app.js';

const BRANCH = 'phase-1-strategic';
const NOT_UTF8 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);

describe('workspace browsing', () => {
  let server: ListeningApp<{ now(): number }>;
  let runId: string;
  let head: string;
  const dir = tempDir();

  beforeAll(async () => {
    server = await startListeningApp({ dialect: 'sqlite' });
    const created = await server.test.app.inject({
      method: 'POST',
      url: '/v1/runs',
      headers: bearer(server.test.tokens.agent),
      payload: {},
    });
    runId = (created.json() as { run: { id: string } }).run.id;
    const token = server.test.tokens.agent;
    await mustGit(['clone', '--quiet', `${server.url}/v1/runs/${runId}/workspace.git`, 'w'], {
      cwd: dir.path,
      token,
    });
    const work = join(dir.path, 'w');
    await mustGit(['checkout', '--quiet', '-b', BRANCH], { cwd: work });
    writeFileSync(join(work, 'plan.md'), '# Plan\n\n- one\n');
    await mustGit(['add', '.'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'plan'], { cwd: work });
    writeFileSync(join(work, 'plan.md'), '# Plan\n\n- one\n- two\n');
    writeFileSync(join(work, 'logo.png'), PNG);
    writeFileSync(join(work, 'latin1.txt'), NOT_UTF8);
    writeFileSync(join(work, 'notes with spaces é.md'), 'unicode\n');
    mkdirSync(join(work, 'docs'));
    writeFileSync(join(work, 'docs', 'guide.md'), 'guide\n');
    await mustGit(['add', '.'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'more files', '-m', 'with a body'], { cwd: work });
    await mustGit(['push', '--quiet', 'origin', BRANCH], { cwd: work, token });
    head = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
  });
  afterAll(async () => {
    await server?.close();
    dir.remove();
  });

  async function get(path: string, token = server.test.tokens.viewer) {
    const response = await server.test.app.inject({ method: 'GET', url: path, headers: bearer(token) });
    return {
      status: response.statusCode,
      body: response.json() as Record<string, unknown> & { error?: { details?: { field?: string } } },
    };
  }

  it('gives the clone URL, the branches and no open review', async () => {
    const response = await fetch(`${server.url}/v1/runs/${runId}/workspace`, {
      headers: bearer(server.test.tokens.agent),
    });
    const body = (await response.json()) as WorkspaceResponse;
    expect(body.gitUrl).toBe(`${server.url}/v1/runs/${runId}/workspace.git`);
    expect(body.mainBranch).toBe('main');
    expect(body.branches.map((branch) => branch.name).sort()).toEqual(['main', BRANCH]);
    expect(body.branches.find((branch) => branch.name === BRANCH)?.head).toBe(head);
    expect(body.openReviewId).toBeNull();
  });

  it('builds the clone URL on the public URL when one is set', () => {
    expect(gitUrlOf('https://gatehouse.example/', 'http://10.0.0.1:8080', 'run_a')).toBe(
      'https://gatehouse.example/v1/runs/run_a/workspace.git',
    );
    expect(gitUrlOf(null, 'http://10.0.0.1:8080', 'run_a')).toBe(
      'http://10.0.0.1:8080/v1/runs/run_a/workspace.git',
    );
  });

  it('lists a branch’s files with their sizes, under a folder too', async () => {
    const { status, body } = await get(`/v1/runs/${runId}/workspace/files?ref=${BRANCH}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      ref: BRANCH,
      commit: head,
      truncated: false,
      files: [
        { path: 'docs/guide.md', size: 6 },
        { path: 'latin1.txt', size: 5 },
        { path: 'logo.png', size: PNG.length },
        { path: 'notes with spaces é.md', size: 8 },
        { path: 'plan.md', size: 20 },
      ],
    });
    const docs = await get(`/v1/runs/${runId}/workspace/files?ref=${BRANCH}&path=docs`);
    expect(docs.body.files).toEqual([{ path: 'docs/guide.md', size: 6 }]);
    const main = await get(`/v1/runs/${runId}/workspace/files`);
    expect(main.body.files).toEqual([]);
  });

  it('reads a text file, and shows binary and non-UTF-8 files as binary', async () => {
    const text = await get(`/v1/runs/${runId}/workspace/file?ref=${BRANCH}&path=plan.md`);
    expect(text.body.file).toEqual({
      path: 'plan.md',
      commit: head,
      binary: false,
      size: 20,
      text: '# Plan\n\n- one\n- two\n',
    });
    const unicode = await get(
      `/v1/runs/${runId}/workspace/file?ref=${BRANCH}&path=${encodeURIComponent('notes with spaces é.md')}`,
    );
    expect(unicode.body.file).toMatchObject({ binary: false, text: 'unicode\n' });
    for (const path of ['logo.png', 'latin1.txt']) {
      const binary = await get(`/v1/runs/${runId}/workspace/file?ref=${BRANCH}&path=${path}`);
      expect(binary.body.file).toMatchObject({ path, binary: true, text: null });
    }
  });

  it.each([
    ['../../etc/passwd', 400],
    ['/etc/passwd', 400],
    ['.git/config', 400],
    ['a/./b', 400],
    ['missing.md', 404],
  ])('answers path %s with %i naming path', async (path, status) => {
    const response = await get(
      `/v1/runs/${runId}/workspace/file?ref=${BRANCH}&path=${encodeURIComponent(path)}`,
    );
    expect(response.status).toBe(status);
    expect(JSON.stringify(response.body.error)).toContain('path');
  });

  it.each([
    ['--upload-pack=touch', 400],
    ['HEAD~1', 400],
    ['phase-9-tactical', 404],
  ])('answers ref %s with %i naming ref', async (ref, status) => {
    const response = await get(`/v1/runs/${runId}/workspace/files?ref=${encodeURIComponent(ref)}`);
    expect(response.status).toBe(status);
    expect(JSON.stringify(response.body.error)).toContain('ref');
  });

  it('gives the log of a branch, of one path too, newest first', async () => {
    const { body } = await get(`/v1/runs/${runId}/workspace/log?ref=${BRANCH}`);
    const commits = body.commits as Array<{
      subject: string;
      body: string;
      commit: string;
      authorName: string;
    }>;
    expect(commits.map((commit) => commit.subject)).toEqual(['more files', 'plan', `Workspace of ${runId}`]);
    expect(commits[0]).toMatchObject({ commit: head, body: 'with a body', authorName: 'Test Agent' });
    const one = await get(`/v1/runs/${runId}/workspace/log?ref=${BRANCH}&path=logo.png&limit=5`);
    expect((one.body.commits as Array<{ subject: string }>).map((commit) => commit.subject)).toEqual([
      'more files',
    ]);
  });

  it('shows a commit with its diff against its parent', async () => {
    const { status, body } = await get(`/v1/runs/${runId}/workspace/show?commit=${head}`);
    expect(status).toBe(200);
    const files = body.files as Array<{
      path: string;
      status: string;
      binary: boolean;
      hunks: Array<{ lines: unknown[] }>;
    }>;
    expect(files.map((file) => [file.path, file.status, file.binary]).sort()).toEqual([
      ['docs/guide.md', 'added', false],
      ['latin1.txt', 'added', true],
      ['logo.png', 'added', true],
      ['notes with spaces é.md', 'added', false],
      ['plan.md', 'modified', false],
    ]);
    const plan = files.find((file) => file.path === 'plan.md');
    expect(plan?.hunks[0]?.lines).toContainEqual({ kind: 'add', oldLine: null, newLine: 4, text: '- two' });
    const missing = await get(`/v1/runs/${runId}/workspace/show?commit=${'0'.repeat(40)}`);
    expect(missing.status).toBe(404);
    const short = await get(`/v1/runs/${runId}/workspace/show?commit=abc`);
    expect(short.status).toBe(400);
  });

  it('diffs two refs, one path too', async () => {
    const { body } = await get(`/v1/runs/${runId}/workspace/diff?from=main&to=${BRANCH}`);
    expect((body.files as Array<{ path: string }>).map((file) => file.path).sort()).toEqual([
      'docs/guide.md',
      'latin1.txt',
      'logo.png',
      'notes with spaces é.md',
      'plan.md',
    ]);
    expect(body.truncated).toBe(false);
    const one = await get(`/v1/runs/${runId}/workspace/diff?to=${BRANCH}&path=plan.md`);
    expect((one.body.files as Array<{ path: string }>).map((file) => file.path)).toEqual(['plan.md']);
  });

  it('hides the workspace from another agent, and asks for credentials', async () => {
    const other = await get(`/v1/runs/${runId}/workspace/files?ref=main`, server.test.tokens.otherAgent);
    expect(other.status).toBe(404);
    const anonymous = await server.test.app.inject({ method: 'GET', url: `/v1/runs/${runId}/workspace` });
    expect(anonymous.statusCode).toBe(401);
  });
});
