import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingsStandIn } from '../testing/embeddings-stand-in.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { gitText } from '../workspace/git.js';
import { commitFile, resolveRef } from '../workspace/git-ops.js';
import { ensureRepo, reposDirOf, serverIdentity } from '../workspace/repos.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const FILES: Record<string, string> = {
  'README.md': '# Garage tool\n\nThis tool tracks the car in the garage.\n\nThe car needs a new battery.\n',
  'notes/plan.txt': 'Plan: rewrite the scheduler.\nThen measure latency.\n',
  'docs/phase-1-retrospective.md': '# Retrospective\n\nThe scheduler rewrite went well; latency halved.\n',
};

describe.each(dialects)('workspace search on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let embeddings: Awaited<ReturnType<typeof startEmbeddingsStandIn>>;

  beforeAll(async () => {
    embeddings = await startEmbeddingsStandIn();
    test = await createTestApp({
      dialect,
      config: { embeddings: { url: embeddings.url, model: 'stand-in', apiKey: null } },
    });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
    await embeddings?.close();
  });

  const get = (url: string, token = test.tokens.viewer) =>
    test.app.inject({ method: 'GET', url, headers: bearer(token) });
  const post = (url: string, payload: unknown, token = test.tokens.developer) =>
    test.app.inject({
      method: 'POST',
      url,
      headers: bearer(token),
      payload: payload as Record<string, unknown>,
    });

  /** A run whose `phase-1-strategic` branch holds FILES. */
  async function runWithBranch(autonomy?: 'full'): Promise<string> {
    const run =
      autonomy === undefined
        ? await createRunViaApi(test)
        : await createRunViaApi(test, { agentId: test.ids.agentId, autonomy }, test.tokens.techLead);
    if (autonomy === undefined) await approveTestPlan(test, run.id);
    const repo = await ensureRepo(reposDirOf(test.config), run.id);
    const main = (await resolveRef(repo, 'refs/heads/main')) ?? '';
    await gitText(repo, ['update-ref', 'refs/heads/phase-1-strategic', main]);
    let head = main;
    for (const [path, text] of Object.entries(FILES)) {
      head = await commitFile(repo, {
        branch: 'phase-1-strategic',
        path,
        text,
        message: `add ${path}`,
        identity: serverIdentity(0),
        expectedHead: head,
      });
    }
    return run.id;
  }

  async function indexed(runId: string, ref = 'phase-1-strategic') {
    const response = await post(`/v1/runs/${runId}/search/index`, { ref });
    expect(response.statusCode).toBe(202);
    await test.services.search.idle();
    return (await get(`/v1/runs/${runId}/search/status`)).json();
  }

  it('indexes the branch on request and reports its state', async () => {
    const runId = await runWithBranch();
    expect((await get(`/v1/runs/${runId}/search/status`)).json()).toMatchObject({ state: 'none', chunks: 0 });
    const status = await indexed(runId);
    expect(status).toMatchObject({ state: 'ready', documents: 3, semantic: true, ref: 'phase-1-strategic' });
    expect(status.chunks).toBeGreaterThanOrEqual(3);
  });

  it('finds words with the database’s full-text index, with path, lines and a marked snippet', async () => {
    const runId = await runWithBranch();
    await indexed(runId);
    const { mode, items } = (await get(`/v1/runs/${runId}/search?q=battery`)).json();
    expect(mode).toBe('text');
    expect(items[0]).toMatchObject({ path: 'README.md', source: 'file', ref: 'phase-1-strategic' });
    expect(items[0].snippet).toContain('«battery»');
    expect(items[0].lineStart).toBeGreaterThanOrEqual(1);
    const retro = (await get(`/v1/runs/${runId}/search?q=latency%20halved`)).json().items;
    expect(retro[0]).toMatchObject({ path: 'docs/phase-1-retrospective.md', source: 'retrospective' });
  });

  it.each([
    '"unbalanced',
    'NEAR(a b',
    "'); drop table search_chunks; --",
    'car AND OR NOT *',
    '^col:battery',
    '(((',
    '-battery',
    '\u0000',
  ])('answers the hostile query %j without breaking', async (q) => {
    const runId = await runWithBranch();
    await indexed(runId);
    const response = await get(`/v1/runs/${runId}/search?q=${encodeURIComponent(q)}`);
    expect([200, 400]).toContain(response.statusCode);
    if (response.statusCode === 400) expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect((await get(`/v1/runs/${runId}/search?q=battery`)).json().items.length).toBeGreaterThan(0);
  });

  it('finds a paraphrase by meaning that a keyword search misses', async () => {
    const runId = await runWithBranch();
    await indexed(runId);
    const text = (await get(`/v1/runs/${runId}/search?q=automobile`)).json();
    expect(text.items).toEqual([]);
    const semantic = (await get(`/v1/runs/${runId}/search?q=automobile&mode=semantic&limit=1`)).json();
    expect(semantic.mode).toBe('semantic');
    expect(semantic.items[0]).toMatchObject({ path: 'README.md' });
    expect(semantic.items[0].score).toBeGreaterThan(0);
  });

  it('indexes the branch under review in the background when a checkpoint freezes the run', async () => {
    const runId = await runWithBranch();
    const checkpoint = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/checkpoint`,
      headers: bearer(test.tokens.agent),
      payload: { phase: 1, type: 'strategic', branch: 'phase-1-strategic' },
    });
    expect(checkpoint.statusCode).toBe(200);
    expect(checkpoint.json().freeze).toBe(true);
    await test.services.search.idle();
    const status = (await get(`/v1/runs/${runId}/search/status`)).json();
    expect(status).toMatchObject({ state: 'ready', ref: 'phase-1-strategic', documents: 3 });
  });

  it('drops the index when the run completes', async () => {
    const runId = await runWithBranch('full');
    await indexed(runId);
    const done = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/complete`,
      headers: bearer(test.tokens.agent),
      payload: {},
    });
    expect(done.statusCode).toBe(200);
    if (done.json().run.status !== 'completed')
      return expect.fail('the test agent’s run should complete at once');
    await expect.poll(async () => (await get(`/v1/runs/${runId}/search/status`)).json().state).toBe('none');
    expect((await get(`/v1/runs/${runId}/search?q=battery`)).json().items).toEqual([]);
  });

  it('keeps the previous index searchable and says failed when indexing fails', async () => {
    const runId = await runWithBranch();
    await indexed(runId);
    embeddings.setFailing(true);
    try {
      const status = await indexed(runId);
      expect(status.state).toBe('failed');
      expect(status.error).toMatch(/embeddings endpoint/);
      expect(status.chunks).toBeGreaterThan(0);
      expect((await get(`/v1/runs/${runId}/search?q=battery`)).json().items.length).toBeGreaterThan(0);
    } finally {
      embeddings.setFailing(false);
    }
  });

  it('re-indexing replaces the previous index', async () => {
    const runId = await runWithBranch();
    const first = await indexed(runId);
    const second = await indexed(runId, 'main');
    expect(first.chunks).toBeGreaterThan(0);
    expect(second).toMatchObject({ state: 'ready', ref: 'main', documents: 0, chunks: 0 });
    expect((await get(`/v1/runs/${runId}/search?q=battery`)).json().items).toEqual([]);
  });

  it('lets viewers and the run’s agent search, refuses indexing below developer, and hides the run from other agents', async () => {
    const runId = await runWithBranch();
    await indexed(runId);
    expect((await get(`/v1/runs/${runId}/search?q=battery`, test.tokens.agent)).statusCode).toBe(200);
    expect((await get(`/v1/runs/${runId}/search?q=battery`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await get(`/v1/runs/${runId}/search/status`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await post(`/v1/runs/${runId}/search/index`, {}, test.tokens.viewer)).statusCode).toBe(403);
    expect((await post(`/v1/runs/${runId}/search/index`, {}, test.tokens.agent)).statusCode).toBe(403);
    expect((await post(`/v1/runs/${runId}/search/index`, {}, test.tokens.otherAgent)).statusCode).toBe(404);
  });
});

describe('workspace search without an embeddings endpoint', () => {
  let test: TestApp<{ now(): number }>;
  beforeAll(async () => {
    test = await createTestApp({ dialect: 'sqlite' });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('refuses mode=semantic naming mode and how to configure it', async () => {
    const run = await createRunViaApi(test);
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${run.id}/search?q=car&mode=semantic`,
      headers: bearer(test.tokens.viewer),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.field).toBe('mode');
    expect(response.json().error.message).toContain('GATEHOUSE_EMBEDDINGS_URL');
  });
});
