import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { callAs, type TestMethod } from '../testing/phase-review.js';
import { cloneRepo } from '../testing/review-git.js';
import { approveTestPlan, createRunViaApi } from '../testing/runs.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('review revisions and their timeline on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  /**
   * A review on its second revision: revision 1 adds a.md and b.md, the person requests changes
   * with `feedback`, revision 2 (started from revision 1's head) changes one line of a.md.
   */
  async function secondRevision(feedback: string) {
    const run = await createRunViaApi(test, { autonomy: 'dependent', title: 'Revisions' });
    await approveTestPlan(test, run.id);
    const repo = await ensureRepo(reposDirOf(test.config), run.id);
    const clone = cloneRepo(repo, { author: AGENT, branch: 'phase-1-strategic' });
    const firstHead = clone.commit({ 'a.md': 'one\ntwo\nthree\n', 'b.md': 'bee\n' }, 'first');
    clone.push('phase-1-strategic');
    const checkpoint = (branch: string) =>
      call('POST', `/v1/runs/${run.id}/checkpoint`, test.tokens.agent, {
        phase: 1,
        type: 'strategic',
        branch,
      });
    const first = (await checkpoint('phase-1-strategic')).json();
    const changes = await decideTestGate(test, test.tokens.developer, first.gate.id, {
      option: 'request_changes',
      feedback,
    });
    expect(changes.statusCode).toBe(200);
    clone.git('checkout', '--quiet', '-b', 'phase-1-strategic-rev-2');
    const secondHead = clone.commit({ 'a.md': 'one\nTWO\nthree\n' }, 'second');
    clone.push('phase-1-strategic-rev-2');
    const second = (await checkpoint('phase-1-strategic-rev-2')).json();
    clone.remove();
    return { run, review: second.review, gate: second.gate, firstHead, secondHead };
  }

  it('lists each revision with its head and shows the changes since revision 1 (its head against the current one)', async () => {
    const { review, firstHead, secondHead } = await secondRevision('uppercase two');
    const url = `/v1/reviews/${review.id}`;
    const read = (await call('GET', url, test.tokens.viewer)).json().review;
    expect(read.revisions).toEqual([
      { revision: 1, branch: 'phase-1-strategic', headCommit: firstHead },
      { revision: 2, branch: 'phase-1-strategic-rev-2', headCommit: secondHead },
    ]);

    const all = (await call('GET', `${url}/files`, test.tokens.viewer)).json();
    expect(all.files.map((file: { path: string }) => file.path)).toEqual(['a.md', 'b.md']);

    const since = (await call('GET', `${url}/files?since=1`, test.tokens.viewer)).json();
    expect(since).toMatchObject({ base: firstHead, head: secondHead });
    expect(since.files).toEqual([
      { path: 'a.md', oldPath: null, status: 'modified', added: 1, removed: 1, binary: false },
    ]);
    const diff = (await call('GET', `${url}/diff?path=a.md&since=1`, test.tokens.viewer)).json().diff;
    const changed = diff.hunks.flatMap((hunk: { lines: { kind: string; text: string }[] }) =>
      hunk.lines.filter((line) => line.kind !== 'context').map((line) => `${line.kind} ${line.text}`),
    );
    expect(changed).toEqual(['del two', 'add TWO']);
    const unchanged = (await call('GET', `${url}/diff?path=b.md&since=1`, test.tokens.viewer)).json().diff;
    expect(unchanged.status).toBe('unchanged');
  });

  it('keeps the feedback of a request for changes in the review’s timeline after the next revision opens', async () => {
    const { review, firstHead } = await secondRevision('Uppercase the second line.');
    const read = (await call('GET', `/v1/reviews/${review.id}`, test.tokens.viewer)).json();
    expect(read.review).toMatchObject({ revision: 2, status: 'open' });
    expect(read.summaries).toEqual([
      {
        id: expect.stringMatching(/^rsm_/),
        revision: 1,
        kind: 'request_changes',
        body: 'Uppercase the second line.',
        author: `user:${test.ids.developerId}`,
        authorName: 'dev',
        commit: firstHead,
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('refuses since for the current, a later or an unknown revision, naming since', async () => {
    const { review } = await secondRevision('again');
    for (const since of ['2', '3', '0', 'one']) {
      const refused = await call('GET', `/v1/reviews/${review.id}/files?since=${since}`, test.tokens.viewer);
      expect(refused.statusCode, since).toBe(400);
      expect(JSON.stringify(refused.json().error.details), since).toContain('since');
    }
  });
});
