import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { callAs, openPhaseReview, type TestMethod } from '../testing/phase-review.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const _AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('pending reviews submitted with a summary on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  async function openReview() {
    const opened = await openPhaseReview(test, { title: 'Pending', files: { 'plan.md': 'a\nb\nc\n' } });
    opened.clone.remove();
    return opened;
  }

  const bodies = (response: LightMyRequestResponse) =>
    response.json().items.map((comment: { body: string }) => comment.body);

  it('keeps pending comments to their author until the review is submitted, then publishes them with the summary', async () => {
    const { review } = await openReview();
    const url = `/v1/reviews/${review.id}`;
    const line = await call('POST', `${url}/comments`, test.tokens.developer, {
      body: 'why b?',
      path: 'plan.md',
      line: 2,
      pending: true,
    });
    expect(line.statusCode).toBe(201);
    expect(line.json().comment).toMatchObject({ pending: true, line: 2 });
    await call('POST', `${url}/comments`, test.tokens.developer, { body: 'overall fine', pending: true });
    await call('POST', `${url}/comments`, test.tokens.techLead, { body: 'published at once' });

    expect(bodies(await call('GET', `${url}/comments`, test.tokens.developer))).toEqual([
      'why b?',
      'overall fine',
      'published at once',
    ]);
    for (const token of [test.tokens.viewer, test.tokens.techLead, test.tokens.agent]) {
      expect(bodies(await call('GET', `${url}/comments`, token))).toEqual(['published at once']);
    }
    const replyToPending = await call('POST', `${url}/comments`, test.tokens.techLead, {
      body: 'me too',
      parentId: line.json().comment.id,
    });
    expect(replyToPending.statusCode).toBe(400);
    expect(replyToPending.json().error.details.field).toBe('parentId');
    const resolveHidden = await call(
      'POST',
      `${url}/comments/${line.json().comment.id}/resolve`,
      test.tokens.techLead,
      {},
    );
    expect(resolveHidden.statusCode).toBe(404);

    const submitted = await call('POST', `${url}/submissions`, test.tokens.developer, {
      verdict: 'comment',
      body: 'A few questions.',
    });
    expect(submitted.statusCode).toBe(201);
    expect(submitted.json()).toMatchObject({
      published: 2,
      summary: { kind: 'comment', body: 'A few questions.', authorName: 'dev', revision: 1 },
    });
    const seen = (await call('GET', `${url}/comments`, test.tokens.viewer)).json().items;
    expect(
      seen.map((comment: { body: string; pending: boolean }) => [comment.body, comment.pending]),
    ).toEqual([
      ['why b?', false],
      ['overall fine', false],
      ['published at once', false],
    ]);

    const approved = await call('POST', `${url}/submissions`, test.tokens.techLead, {
      verdict: 'approve',
      body: 'LGTM',
    });
    expect(approved.json().published).toBe(0);
    const read = (await call('GET', url, test.tokens.viewer)).json();
    expect(
      read.summaries.map((summary: { kind: string; body: string }) => [summary.kind, summary.body]),
    ).toEqual([
      ['comment', 'A few questions.'],
      ['approve', 'LGTM'],
    ]);
    expect(read.verdicts).toMatchObject([
      { path: null, verdict: 'approve', author: `user:${test.ids.techLeadId}` },
    ]);
    const kinds = (await test.services.audit.query({ subject: review.id })).items.map((event) => event.kind);
    expect(kinds.filter((kind) => kind === 'review.submitted')).toHaveLength(2);
  });

  it('refuses a summary-less request for changes, an empty comment, an agent’s pending comment or submission and a viewer', async () => {
    const { review } = await openReview();
    const url = `/v1/reviews/${review.id}`;
    const noBody = await call('POST', `${url}/submissions`, test.tokens.developer, {
      verdict: 'request_changes',
    });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().error.details.field).toBe('body');
    const empty = await call('POST', `${url}/submissions`, test.tokens.developer, { verdict: 'comment' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.field).toBe('body');
    const agentPending = await call('POST', `${url}/comments`, test.tokens.agent, {
      body: 'x',
      pending: true,
    });
    expect(agentPending.statusCode).toBe(400);
    expect(agentPending.json().error.details.field).toBe('pending');
    expect(
      (await call('POST', `${url}/submissions`, test.tokens.agent, { verdict: 'approve' })).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${url}/submissions`, test.tokens.viewer, { verdict: 'approve' })).statusCode,
    ).toBe(403);
    const read = (await call('GET', url, test.tokens.viewer)).json();
    expect(read.summaries).toEqual([]);
    expect(read.verdicts).toEqual([]);
  });

  it('gives the resumed agent the published comments and the timeline, never another person’s pending comment', async () => {
    const { run, review, gate } = await openReview();
    const url = `/v1/reviews/${review.id}`;
    await call('POST', `${url}/comments`, test.tokens.techLead, { body: 'draft thought', pending: true });
    await call('POST', `${url}/comments`, test.tokens.developer, {
      body: 'rename c',
      path: 'plan.md',
      line: 3,
    });
    const changes = await decideTestGate(test, test.tokens.developer, gate.id, {
      option: 'request_changes',
      feedback: 'Rename c, please.',
    });
    expect(changes.statusCode).toBe(200);
    const resume = (await call('GET', `/v1/runs/${run.id}`, test.tokens.agent)).json().resume;
    expect(resume.review.comments.map((comment: { body: string }) => comment.body)).toEqual(['rename c']);
    expect(resume.review.summaries).toMatchObject([{ kind: 'request_changes', body: 'Rename c, please.' }]);
  });
});
