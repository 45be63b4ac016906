import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowChange, smallChanges, type TestFileChange } from '../testing/analysis-changes.js';
import { mustGit, runGit, tempDir } from '../testing/git-client.js';
import { commitFiles } from '../testing/git-fixtures.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { bearer } from '../testing/test-app.js';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';

interface WireError {
  error: { code: string; message: string; details: Record<string, unknown> };
}

const BIG_BODY = { bodyLimit: 8 * 1024 * 1024 };

/** The route's shape of a file: no oldPath unless renamed. */
function wire(files: TestFileChange[] | undefined) {
  return (files ?? []).map(({ oldPath: _oldPath, ...file }) => file);
}

function analyze(server: ListeningApp<{ now(): number }>, body: { files: ReturnType<typeof wire> }) {
  return fetch(`${server.url}/v1/analyze`, {
    method: 'POST',
    headers: { ...bearer(server.test.tokens.agent), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('change analysis off the event loop', () => {
  let server: ListeningApp<{ now(): number }>;
  beforeAll(async () => {
    server = await startListeningApp({
      dialect: 'sqlite',
      config: { ...BIG_BODY, analysisTimeoutMs: 120_000 },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers /healthz while a slow analysis runs', async () => {
    // Starts the worker, so the slow analysis below is all parsing.
    expect((await analyze(server, { files: wire(smallChanges()[0]) })).status).toBe(200);
    const order: string[] = [];
    const slow = analyze(server, { files: wire(slowChange()) }).then(async (response) => {
      order.push('analysis');
      return {
        status: response.status,
        body: (await response.json()) as { facts: { assertionsWeakened: number } },
      };
    });
    // Long enough for the request to be read and handed to the worker; on the event loop it would hold /healthz.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = await fetch(`${server.url}/healthz`);
    order.push('healthz');
    expect(health.status).toBe(200);
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.facts.assertionsWeakened).toBe(3300);
    expect(order).toEqual(['healthz', 'analysis']);
  }, 120_000);
});

describe('the analysis budget and queue', () => {
  let server: ListeningApp<{ now(): number }>;
  const dirs: Array<{ remove(): void }> = [];
  beforeAll(async () => {
    server = await startListeningApp({
      dialect: 'sqlite',
      config: { ...BIG_BODY, analysisTimeoutMs: 1500, analysisQueue: 0 },
    });
    expect((await analyze(server, { files: wire(smallChanges()[0]) })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('refuses an analysis over its budget with 503 naming it, and runs the next one', async () => {
    // One worker, no queue: whichever of two slow analyses comes second is refused with a wait to
    // retry after; the first runs past its budget.
    const answers = await Promise.all(
      [1, 2].map(() => analyze(server, { files: wire(slowChange({ heavy: true })) })),
    );
    answers.sort((a, b) => a.status - b.status);
    const [refused, timedOut] = answers as [Response, Response];
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as WireError).error.code).toBe('RATE_LIMITED');

    expect(timedOut.status).toBe(503);
    const { error } = (await timedOut.json()) as WireError;
    expect(error).toMatchObject({
      code: 'ANALYSIS_TIMEOUT',
      details: { limit: 'timeMs', timeoutMs: 1500 },
    });
    expect(error.message).toContain('GATEHOUSE_ANALYSIS_TIMEOUT_MS');

    const next = await analyze(server, { files: wire(smallChanges()[2]) });
    expect(next.status).toBe(200);
    expect(((await next.json()) as { findings: unknown[] }).findings).toContainEqual(
      expect.objectContaining({ file: 'src/cart.ts' }),
    );
  }, 60_000);

  it('audits a pushed phase branch whose analysis ran over its budget', async () => {
    const created = await server.test.app.inject({
      method: 'POST',
      url: '/v1/runs',
      headers: bearer(server.test.tokens.agent),
      payload: {},
    });
    const runId = (created.json() as { run: { id: string } }).run.id;
    // The files as they were sit on main; the push's analysis compares both sides of every file
    // against main, as the 503 test above does, and runs over the budget.
    const repo = await ensureRepo(reposDirOf(server.test.config), runId);
    const change = slowChange({ heavy: true });
    await commitFiles(repo, 'main', Object.fromEntries(change.map((file) => [file.path, file.before ?? ''])));
    const dir = tempDir();
    dirs.push(dir);
    const token = server.test.tokens.agent;
    const url = `${server.url}/v1/runs/${runId}/workspace.git`;
    await mustGit(['clone', '--quiet', url, 'work'], { cwd: dir.path, token });
    const work = join(dir.path, 'work');
    await mustGit(['checkout', '--quiet', '-b', 'phase-1-strategic'], { cwd: work });
    for (const file of change) {
      mkdirSync(join(work, file.path, '..'), { recursive: true });
      writeFileSync(join(work, file.path), file.after ?? '');
    }
    await mustGit(['add', '--all'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'tests after'], { cwd: work });
    const pushed = await runGit(['push', 'origin', 'phase-1-strategic'], { cwd: work, token });
    expect(pushed.code, pushed.stderr).toBe(0);
    await server.test.services.pushAnalysis.idle();

    const head = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
    const failed = await server.test.services.audit.query({ subject: runId, kind: 'analysis.push_failed' });
    const last = failed.items.find((event) => event.data.new === head)?.data;
    expect(last, JSON.stringify(failed.items)).toMatchObject({
      branch: 'phase-1-strategic',
      code: 'ANALYSIS_TIMEOUT',
    });
    // On a slow machine the first push may run over too; nothing fails for any other reason.
    expect(failed.items.map((event) => event.data.code)).toEqual(failed.items.map(() => 'ANALYSIS_TIMEOUT'));
  }, 60_000);
});
