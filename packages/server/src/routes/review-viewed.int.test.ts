import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { callAs, type TestMethod } from '../testing/phase-review.js';
import { cloneRepo } from '../testing/review-git.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('files marked viewed on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  it('keeps each person’s viewed files, and forgets a file a new revision changes', async () => {
    const run = await createRunViaApi(test, { autonomy: 'dependent', title: 'Viewed' });
    await approveTestPlan(test, run.id);
    const repo = await ensureRepo(reposDirOf(test.config), run.id);
    const clone = cloneRepo(repo, { author: AGENT, branch: 'phase-1-strategic' });
    clone.commit({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' }, 'three files');
    clone.push('phase-1-strategic');
    const checkpoint = (branch: string) =>
      call('POST', `/v1/runs/${run.id}/checkpoint`, test.tokens.agent, {
        phase: 1,
        type: 'strategic',
        branch,
      });
    const first = (await checkpoint('phase-1-strategic')).json();
    const url = `/v1/reviews/${first.review.id}`;

    for (const path of ['a.md', 'b.md']) {
      const marked = await call('PUT', `${url}/viewed`, test.tokens.developer, { path });
      expect(marked.statusCode).toBe(200);
    }
    await call('PUT', `${url}/viewed`, test.tokens.viewer, { path: 'c.md' });
    expect((await call('GET', `${url}/files`, test.tokens.developer)).json().viewed).toEqual([
      'a.md',
      'b.md',
    ]);
    expect((await call('GET', `${url}/files`, test.tokens.viewer)).json().viewed).toEqual(['c.md']);
    expect((await call('GET', `${url}/files`, test.tokens.agent)).json().viewed).toEqual([]);
    const cleared = await call('PUT', `${url}/viewed`, test.tokens.viewer, { path: 'c.md', viewed: false });
    expect(cleared.json().viewed).toEqual([]);

    const notInReview = await call('PUT', `${url}/viewed`, test.tokens.developer, { path: 'z.md' });
    expect(notInReview.statusCode).toBe(400);
    expect(notInReview.json().error.details.field).toBe('path');
    expect((await call('PUT', `${url}/viewed`, test.tokens.agent, { path: 'a.md' })).statusCode).toBe(403);

    await decideTestGate(test, test.tokens.developer, first.gate.id, {
      option: 'request_changes',
      feedback: 'a',
    });
    clone.git('checkout', '--quiet', '-b', 'phase-1-strategic-rev-2');
    clone.commit({ 'a.md': 'A\n' }, 'a again');
    clone.push('phase-1-strategic-rev-2');
    expect((await checkpoint('phase-1-strategic-rev-2')).statusCode).toBe(200);
    expect((await call('GET', `${url}/files`, test.tokens.developer)).json().viewed).toEqual(['b.md']);
    clone.remove();
  });
});
