import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate, TEST_POLICY_YAML } from '../testing/gates.js';
import { callAs, openPhaseReview, type TestMethod } from '../testing/phase-review.js';
import { bareGit } from '../testing/review-git.js';
import { createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const _AGENT = { name: 'alpha', email: 'alpha@agents.invalid' };
const RESOLVED_THREADS_POLICY = `${TEST_POLICY_YAML}reviews:\n  requireResolvedThreads: true\n`;

describe.each(dialects)('merging a review: open threads and the squash message on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  const call = (method: TestMethod, url: string, token: string, payload?: Record<string, unknown>) =>
    callAs(test, method, url, token, payload);

  async function openReview(title = 'Merge rules') {
    const opened = await openPhaseReview(test, { title, files: { 'plan.md': 'a\nb\nc\n' } });
    opened.clone.remove();
    return opened;
  }

  async function setPolicy(source: string) {
    await test.services.policies.replace(test.ids.adminId, { source, format: 'yaml' });
  }

  it('with the policy requiring resolved threads, refuses the merge with 409 naming the open threads until people resolve them', async () => {
    await setPolicy(RESOLVED_THREADS_POLICY);
    try {
      const { repo, review, gate } = await openReview();
      const url = `/v1/reviews/${review.id}`;
      const person = (
        await call('POST', `${url}/comments`, test.tokens.developer, {
          body: 'why b?',
          path: 'plan.md',
          line: 2,
        })
      ).json().comment;
      const agents = (
        await call('POST', `${url}/comments`, test.tokens.agent, { body: 'note to self' })
      ).json().comment;
      await call('POST', `${url}/comments`, test.tokens.developer, { body: 'draft', pending: true });
      const mainBefore = bareGit(repo, 'rev-parse', 'main');

      const refused = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
      expect(refused.statusCode).toBe(409);
      const error = refused.json().error;
      expect(error.code).toBe('CONFLICT');
      expect(error.message).toContain('2 open threads');
      expect(error.message).toContain(person.id);
      expect(error.message).toContain(agents.id);
      expect(error.details.openThreads.map((thread: { id: string }) => thread.id)).toEqual([
        person.id,
        agents.id,
      ]);
      expect((await test.store.read((tx) => tx.getGate(gate.id)))?.status).toBe('pending');
      expect(bareGit(repo, 'rev-parse', 'main')).toBe(mainBefore);

      // The agent may not close a person's thread to get its branch merged, nor change the policy.
      const byAgent = await call('POST', `${url}/comments/${person.id}/resolve`, test.tokens.agent, {});
      expect(byAgent.statusCode).toBe(403);
      const agentPolicy = await call('PUT', '/v1/policy', test.tokens.agent, {
        source: TEST_POLICY_YAML,
        format: 'yaml',
      });
      expect(agentPolicy.statusCode).toBe(403);
      await call('POST', `${url}/comments/${agents.id}/resolve`, test.tokens.agent, {});
      const still = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
      expect(still.statusCode).toBe(409);
      expect(still.json().error.details.openThreads).toEqual([
        { id: person.id, path: 'plan.md', line: 2, authorName: 'dev' },
      ]);

      await call('POST', `${url}/comments/${person.id}/resolve`, test.tokens.developer, {});
      const merged = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
      expect(merged.statusCode).toBe(200);
      expect((await call('GET', url, test.tokens.viewer)).json().review.status).toBe('merged');
    } finally {
      await setPolicy(TEST_POLICY_YAML);
    }
  });

  it('without the policy merges with open threads (the web app warns with the count)', async () => {
    const { review, gate } = await openReview();
    await call('POST', `/v1/reviews/${review.id}/comments`, test.tokens.developer, { body: 'open question' });
    const merged = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(merged.statusCode).toBe(200);
  });

  it('squash-merges with the title and body a person edited, prefilled from the phase, the trailers kept', async () => {
    const { repo, review, gate } = await openReview('Squash');
    const url = `/v1/reviews/${review.id}`;
    expect((await call('GET', url, test.tokens.viewer)).json().squashMessage).toEqual({
      title: 'Phase 1 (strategic) of Squash',
      body: '',
      edited: false,
    });
    const message = { title: 'Add the plan', body: 'Three steps.\nGatehouse-Review: rev_other' };
    expect((await call('PUT', `${url}/squash-message`, test.tokens.agent, message)).statusCode).toBe(403);
    expect((await call('PUT', `${url}/squash-message`, test.tokens.viewer, message)).statusCode).toBe(403);
    for (const title of ['', 'two\nlines']) {
      const bad = await call('PUT', `${url}/squash-message`, test.tokens.developer, { title, body: '' });
      expect(bad.statusCode, title).toBe(400);
      expect(JSON.stringify(bad.json().error.details), title).toContain('title');
    }
    const saved = await call('PUT', `${url}/squash-message`, test.tokens.developer, message);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().squashMessage).toEqual({ ...message, edited: true });
    expect((await call('GET', url, test.tokens.viewer)).json().squashMessage.title).toBe('Add the plan');

    const merged = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(merged.statusCode).toBe(200);
    const body = bareGit(repo, 'log', '-1', '--format=%B', 'main');
    expect(body.split('\n').slice(0, 3)).toEqual(['Add the plan', '', 'Three steps.']);
    expect(body).toContain(`Gatehouse-Review: ${review.id}`);
    expect(body).not.toContain('rev_other');
    expect(body).toContain('Co-authored-by: alpha <alpha@agents.invalid>');
    const late = await call('PUT', `${url}/squash-message`, test.tokens.developer, message);
    expect(late.statusCode).toBe(409);
    const kinds = (await test.services.audit.query({ subject: review.id })).items.map((event) => event.kind);
    expect(kinds).toContain('review.squash_message');
  });
});
