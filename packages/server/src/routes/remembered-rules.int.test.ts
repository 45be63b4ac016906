import { afterEach, describe, expect, it } from 'vitest';
import { insertTestRun, useTestPolicy } from '../testing/gates.js';
import type { HttpResult } from '../testing/http-client.js';
import { type FakeClockApp, startFakeClockApp } from '../testing/listening-app.js';
import { approveTestPlan } from '../testing/runs.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const TTL_SECONDS = 600;

describe.each(dialects)('remembered "approve always" rules over HTTP on %s', (dialect) => {
  let live: FakeClockApp;
  afterEach(async () => {
    await live?.close();
  });

  async function start() {
    live = await startFakeClockApp(dialect);
    await useTestPolicy(live.test);
  }

  function request(runId: string, path: string): Promise<HttpResult> {
    return live.client.call('POST', '/v1/gates', {
      token: live.test.tokens.agent,
      body: { runId, tool: 'edit_file', args: { path } },
    });
  }

  async function ruleIds(query = ''): Promise<string[]> {
    const answer = await live.client.call('GET', `/v1/rules${query}`, { token: live.test.tokens.viewer });
    return answer.body.rules.map((rule: { id: string }) => rule.id);
  }

  it('stops letting the tool through once the rule’s ttl has passed by the server clock', async () => {
    await start();
    const { clock, tokens } = live.test;
    const run = await insertTestRun(live.test);
    await approveTestPlan(live.test, run.id);
    const gated = await request(run.id, 'src/a.ts');
    expect(gated.body.outcome, JSON.stringify(gated.body)).toBe('gated');
    const decided = await live.client.call('POST', `/v1/gates/${gated.body.gate.id}/decide`, {
      token: tokens.developer,
      body: { option: 'approve_always', remember: { scope: 'run', ttlSeconds: TTL_SECONDS } },
    });
    expect(decided.status).toBe(200);
    const rule = decided.body.rule;
    expect(rule).toMatchObject({ scope: 'run', runId: run.id, tool: 'edit_file' });
    expect(rule.expiresAt).toBe(clock.now() + TTL_SECONDS * 1000);

    clock.advance(TTL_SECONDS * 1000 - 1);
    expect((await request(run.id, 'src/b.ts')).body).toMatchObject({ outcome: 'allowed', ruleId: rule.id });
    expect(await ruleIds()).toEqual([rule.id]);

    clock.advance(1);
    const expired = await request(run.id, 'src/c.ts');
    expect(expired.body).toMatchObject({ outcome: 'gated', ruleId: null });
    expect(await ruleIds()).toEqual([]);
    expect(await ruleIds('?includeRevoked=true')).toEqual([rule.id]);
  });
});
