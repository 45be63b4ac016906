import { createFakeClock, createGateCatalog, openGate } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, insertTestRun, openTestGate, useTestPolicy } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('review health on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock() });
  }

  function view(token: string, gateId: string, part: unknown) {
    return test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/views`,
      headers: bearer(token),
      payload: { part },
    });
  }

  function health(token: string, query = '') {
    return test.app.inject({ method: 'GET', url: `/v1/review-health${query}`, headers: bearer(token) });
  }

  /** Opens a high-risk gate, lets `token` open `parts`, waits `seconds` and answers with `option`. */
  async function review(token: string, options: { parts: string[]; seconds: number; option: string }) {
    const gateId = await openTestGate(test, {
      tool: 'shell',
      args: { command: 'deploy prod' },
      risk: 'high',
    });
    for (const part of options.parts) expect((await view(token, gateId, part)).statusCode).toBe(200);
    test.clock.advance(options.seconds * 1000);
    const decided = await decideTestGate(test, token, gateId, { option: options.option, reason: 'checked' });
    expect(decided.statusCode).toBe(200);
    test.clock.advance(60_000);
    return gateId;
  }

  it('records what a person opened once, keeping the first time', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'deploy staging' } });
    const first = await view(test.tokens.developer, gateId, 'diff');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ gateId, part: 'diff', viewedAt: test.clock.now() });
    test.clock.advance(5_000);
    expect((await view(test.tokens.developer, gateId, 'diff')).json()).toEqual(first.json());
  });

  it('refuses a view with an unknown part (400 naming it), of no gate (404) or from an agent (403)', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'deploy staging' } });
    const bad = await view(test.tokens.developer, gateId, 'everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(bad.body).toContain('part');
    expect((await view(test.tokens.developer, 'gate_missing', 'diff')).json().error.code).toBe('NOT_FOUND');
    const agent = await view(test.tokens.agent, gateId, 'diff');
    expect(agent.statusCode).toBe(403);
  });

  it('flags the reviewer who approves high risk in a second without opening anything, and not the careful one', async () => {
    await start();
    const stamped: string[] = [];
    for (let n = 0; n < 12; n++) {
      await review(test.tokens.admin, {
        parts: ['arguments', 'diff'],
        seconds: 45,
        option: n % 3 ? 'approve' : 'reject',
      });
      stamped.push(await review(test.tokens.techLead, { parts: [], seconds: 1, option: 'approve' }));
    }
    const response = await health(test.tokens.admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.window.days).toBe(30);
    expect(body.flags).toHaveLength(1);
    expect(body.flags[0]).toMatchObject({
      reviewer: test.ids.techLeadId,
      signals: ['blind', 'fast', 'approves_all'],
    });
    expect(body.flags[0].pattern).toContain(
      'approves high-risk in a median 1.0 s, opened nothing in 12 of 12 approvals',
    );
    expect(body.flags[0].gateIds).toEqual([...stamped].reverse());
    const careful = body.reviewers.find((r: { reviewer: string }) => r.reviewer === test.ids.adminId);
    expect(careful).toMatchObject({
      decisions: 12,
      approvals: 8,
      blindApprovals: 0,
      fastHighRiskApprovals: 0,
      loadShare: 0.5,
    });
    expect(careful.timeToDecision.high).toEqual({ count: 12, medianSeconds: 45, p90Seconds: 45 });
    expect(body.groups.map((g: { group: string }) => g.group).sort()).toEqual(['admin', 'tech_lead']);
    expect(
      body.series.approvals
        .find((s: { reviewer: string }) => s.reviewer === test.ids.techLeadId)
        .counts.at(-1),
    ).toBe(12);
  });

  it('exports per-reviewer decision counts and latency to Prometheus', async () => {
    await start();
    await review(test.tokens.techLead, { parts: [], seconds: 1, option: 'approve' });
    await review(test.tokens.admin, { parts: ['diff'], seconds: 45, option: 'reject' });
    await test.services.metrics.settled();
    const text = (await test.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain(
      `gatehouse_reviewer_decisions_total{outcome="approved",reviewer="${test.ids.techLeadId}",risk="high"} 1`,
    );
    expect(text).toContain(
      `gatehouse_reviewer_decision_seconds_bucket{le="2",reviewer="${test.ids.techLeadId}"} 1`,
    );
    expect(text).toContain(
      `gatehouse_reviewer_decision_seconds_bucket{le="30",reviewer="${test.ids.adminId}"} 0`,
    );
  });

  it('counts an approval as contradicted when its run failed afterwards', async () => {
    await start();
    const run = await insertTestRun(test);
    const opened = openGate(
      {
        type: 'tool_call',
        agentId: test.ids.agentId,
        runId: run.id,
        requestedBy: `agent:${test.ids.agentId}`,
      },
      { catalog: createGateCatalog(), id: 'gate_migrate', now: test.clock.now() },
    );
    const decision = {
      option: 'approve',
      outcome: 'approved' as const,
      decidedBy: test.ids.developerId,
      affectedArtifacts: [],
    };
    await test.store.transaction((tx) =>
      tx.insertGate({
        ...opened,
        status: 'approved',
        decision: { ...decision, decidedAt: test.clock.now() + 5_000 },
      }),
    );
    test.clock.advance(10_000);
    test.clock.advance(1_000);
    await test.store.transaction(async (tx) => {
      const stored = await tx.getRun(run.id);
      if (stored === null) throw new Error('the run is gone');
      const { version, ...current } = stored;
      await tx.updateRun({ ...current, status: 'failed', updatedAt: test.clock.now() }, version);
    });
    const body = (await health(test.tokens.admin)).json();
    expect(body.totals.contradicted).toBe(1);
    expect(body.reviewers[0]).toMatchObject({ reviewer: test.ids.developerId, contradicted: 1 });
  });

  it('counts gates that timed out, against the role they waited on', async () => {
    await start();
    await useTestPolicy(test);
    await openTestGate(test, { tool: 't_deny', args: {} });
    await openTestGate(test, { tool: 't_escalate', args: {} });
    test.clock.advance(60_000);
    expect(await test.services.timeouts.sweepOnce()).toBe(2);
    const body = (await health(test.tokens.admin)).json();
    expect(body.totals.escalationsByTimeout).toBe(2);
    expect(body.groups).toEqual([
      expect.objectContaining({ group: 'developer', decisions: 0, escalationsByTimeout: 2 }),
    ]);
  });

  it('is for admins only: 403 for a tech lead and an agent, 400 naming a bad window', async () => {
    await start();
    expect((await health(test.tokens.techLead)).json().error.code).toBe('ROLE_TOO_LOW');
    expect((await health(test.tokens.techLead)).statusCode).toBe(403);
    expect((await health(test.tokens.agent)).statusCode).toBe(403);
    const bad = await health(test.tokens.admin, '?window=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('window must be between 1 and 365 days');
    expect((await health(test.tokens.admin, '?window=7')).json().window.days).toBe(7);
  });
});
