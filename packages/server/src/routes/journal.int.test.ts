import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('run journal on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const append = (runId: string, entries: unknown[], token = test.tokens.agent) =>
    test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/journal`,
      headers: bearer(token),
      payload: { entries },
    });
  const get = (url: string, token: string) => test.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('stores chat, todos, LLM requests and notes and lists them oldest first, by kind and by page', async () => {
    const run = await createRunViaApi(test);
    const response = await append(run.id, [
      { kind: 'chat', data: { role: 'user', content: 'write the plan' } },
      { kind: 'todos', data: { items: [{ text: 'plan', status: 'in_progress' }] } },
      {
        kind: 'llm_request',
        data: { model: 'm', messages: [{ role: 'user', content: 'hi' }], durationMs: 12 },
      },
      { kind: 'note', data: { text: 'done' }, at: 1000 },
    ]);
    expect(response.statusCode).toBe(201);
    const { count, ids } = response.json() as { count: number; ids: string[] };
    expect(count).toBe(4);
    const all = (await get(`/v1/runs/${run.id}/journal`, test.tokens.viewer)).json() as {
      items: { id: string; kind: string; createdAt: number }[];
    };
    expect(all.items.map((item) => item.id)).toEqual(ids);
    expect(all.items[3]?.createdAt).toBe(1000);
    const llm = (await get(`/v1/runs/${run.id}/journal?kind=llm_request`, test.tokens.viewer)).json();
    expect(llm.items).toHaveLength(1);
    expect(llm.items[0].data.model).toBe('m');
    const first = (await get(`/v1/runs/${run.id}/journal?limit=2`, test.tokens.agent)).json();
    expect(first.items).toHaveLength(2);
    const second = (
      await get(`/v1/runs/${run.id}/journal?limit=2&cursor=${first.nextCursor}`, test.tokens.agent)
    ).json();
    expect(second.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    const one = await get(`/v1/runs/${run.id}/journal/${ids[2]}`, test.tokens.viewer);
    expect(one.json().entry.kind).toBe('llm_request');
  });

  it.each([
    ['a chat entry without content', { kind: 'chat', data: { role: 'user' } }],
    ['a todo with an unknown status', { kind: 'todos', data: { items: [{ text: 'x', status: 'later' }] } }],
    ['an LLM request without a model', { kind: 'llm_request', data: { messages: [] } }],
    ['an unknown kind', { kind: 'diary', data: { text: 'x' } }],
    ['data over 64 KiB', { kind: 'note', data: { text: 'x'.repeat(70_000) } }],
  ])('refuses %s and stores nothing', async (_name, entry) => {
    const run = await createRunViaApi(test);
    const response = await append(run.id, [{ kind: 'note', data: { text: 'fine' } }, entry]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect((await get(`/v1/runs/${run.id}/journal`, test.tokens.viewer)).json().items).toEqual([]);
  });

  it('refuses an empty batch and one over 100 entries', async () => {
    const run = await createRunViaApi(test);
    expect((await append(run.id, [])).statusCode).toBe(400);
    const many = Array.from({ length: 101 }, () => ({ kind: 'note', data: { text: 'x' } }));
    expect((await append(run.id, many)).statusCode).toBe(400);
  });

  it('lets only the run’s own agent append, and hides the run from other agents', async () => {
    const run = await createRunViaApi(test);
    const entry = { kind: 'note', data: { text: 'x' } };
    expect((await append(run.id, [entry], test.tokens.admin)).statusCode).toBe(403);
    expect((await append(run.id, [entry], test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await get(`/v1/runs/${run.id}/journal`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await get(`/v1/runs/${run.id}/journal`, '')).statusCode).toBe(401);
  });

  it('closes the journal of a stopped run', async () => {
    const run = await createRunViaApi(test);
    const stop = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${run.id}/interventions`,
      headers: bearer(test.tokens.developer),
      payload: { kind: 'stop' },
    });
    expect(stop.statusCode).toBe(200);
    const response = await append(run.id, [{ kind: 'note', data: { text: 'late' } }]);
    expect(response.json().error.code).toBe('RUN_NOT_ACTIVE');
  });
});
