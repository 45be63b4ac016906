import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, openPhaseReview, type TestMethod } from '../testing/phase-review.js';
import { bareGit } from '../testing/review-git.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const _AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };

describe.each(dialects)('multi-line comments and suggestions on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  function openReview() {
    return openPhaseReview(test, { title: 'Suggestions', files: { 'plan.md': 'a\nb\nc\nd\n' } });
  }

  it('comments on a range of lines and refuses a backwards range or a suggestion on the old side', async () => {
    const { review, clone } = await openReview();
    const url = `/v1/reviews/${review.id}/comments`;
    const range = await call('POST', url, test.tokens.developer, {
      body: 'merge these',
      path: 'plan.md',
      startLine: 2,
      line: 3,
    });
    expect(range.statusCode).toBe(201);
    expect(range.json().comment).toMatchObject({
      startLine: 2,
      line: 3,
      lineText: 'b\nc',
      outdated: false,
      suggestion: null,
    });
    const backwards = await call('POST', url, test.tokens.developer, {
      body: 'x',
      path: 'plan.md',
      startLine: 4,
      line: 3,
    });
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json().error.details)).toContain('startLine');
    const oldSide = await call('POST', url, test.tokens.developer, {
      body: 'x',
      path: 'plan.md',
      line: 1,
      side: 'old',
      suggestion: 'A',
    });
    expect(oldSide.statusCode).toBe(400);
    expect(JSON.stringify(oldSide.json().error.details)).toContain('suggestion');
    clone.remove();
  });

  it('applies a suggestion as one commit by the person on the branch, resolves its thread, and refuses it once the lines changed', async () => {
    const { repo, clone, review } = await openReview();
    const url = `/v1/reviews/${review.id}`;
    const suggested = (
      await call('POST', `${url}/comments`, test.tokens.developer, {
        body: 'uppercase, and one more line',
        path: 'plan.md',
        startLine: 2,
        line: 3,
        suggestion: 'B\nC\nC2',
      })
    ).json().comment;
    expect(suggested).toMatchObject({ suggestion: 'B\nC\nC2', startLine: 2, line: 3 });
    expect((await call('POST', `${url}/comments/${suggested.id}/apply`, test.tokens.agent)).statusCode).toBe(
      403,
    );
    expect((await call('POST', `${url}/comments/${suggested.id}/apply`, test.tokens.viewer)).statusCode).toBe(
      403,
    );

    const applied = await call('POST', `${url}/comments/${suggested.id}/apply`, test.tokens.techLead);
    expect(applied.statusCode).toBe(200);
    const created = applied.json().commit;
    expect(bareGit(repo, 'rev-parse', 'phase-1-strategic')).toBe(created);
    expect(bareGit(repo, 'log', '-1', '--format=%an', created)).toBe('lead');
    expect(bareGit(repo, 'show', `${created}:plan.md`)).toBe('a\nB\nC\nC2\nd');
    expect(applied.json().comment).toMatchObject({ id: suggested.id, resolved: true, outdated: true });
    const kinds = (await test.services.audit.query({ subject: review.id })).items.map((event) => event.kind);
    expect(kinds).toContain('review.suggestion_applied');

    const again = await call('POST', `${url}/comments/${suggested.id}/apply`, test.tokens.techLead);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('lines 2-3 changed');

    const first = (
      await call('POST', `${url}/comments`, test.tokens.developer, {
        body: 'capital',
        path: 'plan.md',
        line: 1,
        suggestion: 'A',
      })
    ).json().comment;
    clone.git('pull', '--quiet', 'origin', 'phase-1-strategic');
    clone.commit({ 'plan.md': 'alpha\nB\nC\nC2\nd\n' }, 'agent renames a');
    clone.push('phase-1-strategic');
    const head = bareGit(repo, 'rev-parse', 'phase-1-strategic');
    const stale = await call('POST', `${url}/comments/${first.id}/apply`, test.tokens.developer);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('CONFLICT');
    expect(bareGit(repo, 'rev-parse', 'phase-1-strategic')).toBe(head);
    const plain = (await call('POST', `${url}/comments`, test.tokens.developer, { body: 'no code' })).json()
      .comment;
    const none = await call('POST', `${url}/comments/${plain.id}/apply`, test.tokens.developer);
    expect(none.statusCode).toBe(400);
    clone.remove();
  });
});
