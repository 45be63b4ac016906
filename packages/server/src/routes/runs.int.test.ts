import { type AutonomyLevel, requiresIntentApproval } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate } from '../testing/gates.js';
import { approveTestPlan, createRunViaApi, insertTestAgent, postRun, type TestRun } from '../testing/runs.js';
import { snapshotState } from '../testing/state-snapshot.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

type Gate = { id: string; type: string; status: string; context: Record<string, unknown>; runId: string };

describe.each(dialects)('runs on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let agentCount = 0;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function get(url: string, token: string) {
    return test.app.inject({ method: 'GET', url, headers: bearer(token) });
  }
  function post(url: string, token: string, payload: Record<string, unknown> = {}) {
    return test.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  }
  async function runOf(runId: string): Promise<{ run: TestRun; resume: Record<string, unknown> | null }> {
    return (await get(`/v1/runs/${runId}`, test.tokens.viewer)).json();
  }
  /**
   * A run of the test agent at `autonomy`, started by a tech lead (who may loosen the agent's default),
   * with its plan approved where Gate 0 holds implementation.
   */
  async function runWith(autonomy: AutonomyLevel): Promise<TestRun> {
    const run = await createRunViaApi(test, { agentId: test.ids.agentId, autonomy }, test.tokens.techLead);
    if (requiresIntentApproval(autonomy)) await approveTestPlan(test, run.id);
    return run;
  }
  function checkpoint(runId: string, body: Record<string, unknown>, token = test.tokens.agent) {
    return post(`/v1/runs/${runId}/checkpoint`, token, body);
  }
  /** Checkpoints phases 1 … phase − 1 in order, approving any review they freeze for. */
  async function reach(runId: string, phase: number): Promise<void> {
    for (let n = 1; n < phase; n++) {
      const body = (
        await checkpoint(runId, { phase: n, type: n % 2 === 1 ? 'strategic' : 'tactical' })
      ).json();
      if (body.freeze) await decideTestGate(test, test.tokens.developer, body.gate.id, { option: 'approve' });
    }
  }

  it.each([
    ['the framework default with no profile', null, null, undefined, 'partial'],
    ['an unknown profile falls back to the framework default', 'poet', null, undefined, 'partial'],
    ['the debugger profile default', 'debugger', null, undefined, 'full'],
    ['the validator profile default', 'validator', null, undefined, 'review'],
    ["the agent's own level over its profile", 'debugger', 'dependent', undefined, 'dependent'],
    ['a stricter run override over the agent', 'coder', 'guided', 'dependent', 'dependent'],
    ['a stricter run override over the profile', 'debugger', null, 'guided', 'guided'],
    ['a looser run override from a tech lead', 'coder', 'guided', 'full', 'full'],
  ] as const)('resolves autonomy: %s', async (name, profile, agentAutonomy, override, expected) => {
    agentCount += 1;
    const agentId = `agent_autonomy_${agentCount}`;
    await insertTestAgent(test, { id: agentId, profile, autonomy: agentAutonomy });
    const body = { agentId, ...(override === undefined ? {} : { autonomy: override }) };
    const token = name.includes('tech lead') ? test.tokens.techLead : test.tokens.developer;
    const run = await createRunViaApi(test, body, token);
    expect(run).toMatchObject({ agentId, autonomy: expected });
  });

  it('creates a running run in phase 1 strategic with auto mode and 0.8 by default, audited', async () => {
    const run = await createRunViaApi(test, { title: 'Fix the \u001b[31mlogin\u202e bug' });
    expect(run).toMatchObject({
      agentId: test.ids.agentId,
      status: 'running',
      autonomy: 'partial',
      approvalMode: 'auto',
      confidenceThreshold: 0.8,
      phaseNumber: 1,
      phaseType: 'strategic',
      instructions: [],
      title: 'Fix the ⟨U+001B⟩[31mlogin⟨U+202E⟩ bug',
    });
    const audit = await test.services.audit.query({ subject: run.id });
    expect(audit.items.map((event) => event.kind)).toEqual(['run.created']);
    expect(audit.items[0]?.actor).toBe(`agent:${test.ids.agentId}`);
  });

  it('takes the approval mode and threshold of the request', async () => {
    const run = await createRunViaApi(test, {
      approvalMode: 'confidence_threshold',
      confidenceThreshold: 0.9,
    });
    expect(run).toMatchObject({ approvalMode: 'confidence_threshold', confidenceThreshold: 0.9 });
  });

  it.each([
    ['an unknown autonomy level', { autonomy: 'yolo' }, 'autonomy'],
    ['a threshold on the 0-100 scale', { confidenceThreshold: 80 }, 'confidenceThreshold'],
    ['an unknown approval mode', { approvalMode: 'sometimes' }, 'approvalMode'],
    ['an unknown field', { priority: 'high' }, 'priority'],
  ])('refuses %s with a 400 naming the field and writes nothing', async (_name, body, field) => {
    const before = await snapshotState(test.store);
    const response = await postRun(test, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect(response.body).toContain(field);
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('lets an agent start only its own runs, and people from developer up name the agent', async () => {
    const other = await postRun(test, { agentId: test.ids.otherAgentId });
    expect(other.statusCode).toBe(403);
    const viewer = await postRun(test, { agentId: test.ids.agentId }, test.tokens.viewer);
    expect(viewer.json().error.code).toBe('ROLE_TOO_LOW');
    const unnamed = await postRun(test, {}, test.tokens.developer);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.details.field).toBe('agentId');
    const unknown = await postRun(test, { agentId: 'agent_nobody' }, test.tokens.developer);
    expect(unknown.statusCode).toBe(404);
    const forAgent = await createRunViaApi(test, { agentId: test.ids.otherAgentId }, test.tokens.developer);
    expect(forAgent.agentId).toBe(test.ids.otherAgentId);
  });

  it("shows an agent only its own runs and answers another agent's run with 404, like an unknown one", async () => {
    const mine = await createRunViaApi(test);
    const theirs = await createRunViaApi(test, {}, test.tokens.otherAgent);
    expect((await get(`/v1/runs/${theirs.id}`, test.tokens.agent)).statusCode).toBe(404);
    expect((await get(`/v1/runs/${theirs.id}/interventions`, test.tokens.agent)).statusCode).toBe(404);
    expect((await get(`/v1/runs?agentId=${test.ids.otherAgentId}`, test.tokens.agent)).statusCode).toBe(403);
    const own = (await get('/v1/runs?limit=500', test.tokens.agent)).json();
    expect(own.items.every((run: TestRun) => run.agentId === test.ids.agentId)).toBe(true);
    expect(own.items.map((run: TestRun) => run.id)).toContain(mine.id);
    expect((await get(`/v1/runs/${theirs.id}`, test.tokens.viewer)).statusCode).toBe(200);
    expect((await get('/v1/runs/run_missing', test.tokens.viewer)).statusCode).toBe(404);
  });

  it('pages through runs newest first with a cursor', async () => {
    const agentId = 'agent_paging';
    await insertTestAgent(test, { id: agentId });
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await createRunViaApi(test, { agentId }, test.tokens.developer)).id);
    const seen: string[] = [];
    let url = `/v1/runs?agentId=${agentId}&limit=2`;
    for (;;) {
      const page = (await get(url, test.tokens.viewer)).json();
      seen.push(...page.items.map((run: TestRun) => run.id));
      if (page.nextCursor === null) break;
      url = `/v1/runs?agentId=${agentId}&limit=2&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual([...created].reverse());
    const running = (await get(`/v1/runs?agentId=${agentId}&status=stopped`, test.tokens.viewer)).json();
    expect(running.items).toEqual([]);
  });

  it('is waiting while one of its gates is pending and running again once it is decided', async () => {
    const run = await createRunViaApi(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, {
      runId: run.id,
      tool: 'shell',
      args: { command: 'rm -rf dist' },
    });
    expect((await runOf(run.id)).run.status).toBe('waiting');
    await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    expect((await runOf(run.id)).run.status).toBe('running');
  });

  it.each([
    ['full', 1, 'strategic', false, false],
    ['full', 3, 'tactical', true, false],
    ['review', 1, 'strategic', false, false],
    ['review', 2, 'tactical', true, true],
    ['partial', 1, 'strategic', false, true],
    ['partial', 3, 'strategic', false, false],
    ['partial', 2, 'tactical', false, false],
    ['guided', 3, 'strategic', false, true],
    ['guided', 2, 'tactical', false, false],
    ['dependent', 2, 'tactical', false, true],
  ] as const)(
    'a %s run at phase %i %s (job complete %s) freezes: %s',
    async (autonomy, phase, type, jobComplete, freeze) => {
      const run = await runWith(autonomy);
      await reach(run.id, phase);
      const response = await checkpoint(run.id, { phase, type, jobComplete });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.freeze).toBe(freeze);
      expect(body.run).toMatchObject({
        phaseNumber: phase,
        phaseType: type,
        status: freeze ? 'waiting' : 'running',
      });
      if (freeze) expect(body.gate).toMatchObject({ type: 'phase_review', runId: run.id, status: 'pending' });
      else expect(body.gate).toBeNull();
    },
  );

  it('freezes into a phase review on the phase branch; a retry gets the same gate; approval resumes tactical', async () => {
    const run = await runWith('partial');
    const first = (await checkpoint(run.id, { phase: 1, type: 'strategic' })).json();
    const gate = first.gate as Gate;
    expect(gate.context).toMatchObject({
      phase: 1,
      type: 'strategic',
      jobComplete: false,
      branch: 'phase-1-strategic',
      freezeContext: 'initial_strategic',
    });
    expect((await checkpoint(run.id, { phase: 1, type: 'strategic' })).json().gate.id).toBe(gate.id);
    expect((await runOf(run.id)).resume).toBeNull();
    expect(
      (await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' })).statusCode,
    ).toBe(200);
    const detail = await runOf(run.id);
    expect(detail.run.status).toBe('running');
    expect(detail.resume).toMatchObject({
      gateId: gate.id,
      status: 'approved',
      plan: { context: 'initial_strategic', next: 'tactical', phaseNumber: 2, phaseType: 'tactical' },
    });
    const audit = await test.services.audit.query({ subject: run.id });
    expect(audit.items.map((event) => event.kind)).toContain('run.checkpoint');
  });

  it('resumes on the same strategic phase with the feedback when changes are requested', async () => {
    const run = await runWith('guided');
    await reach(run.id, 3);
    const gate = (await checkpoint(run.id, { phase: 3, type: 'strategic' })).json().gate as Gate;
    const decided = await decideTestGate(test, test.tokens.developer, gate.id, {
      option: 'request_changes',
      feedback: 'Split the migration into two steps',
    });
    expect(decided.statusCode).toBe(200);
    expect((await runOf(run.id)).resume).toMatchObject({
      status: 'resolved',
      option: 'request_changes',
      feedback: 'Split the migration into two steps',
      plan: { next: 'strategic', phaseNumber: 3, phaseType: 'strategic', withFeedback: true },
    });
  });

  it('completes a full-autonomy run at once', async () => {
    const run = await runWith('full');
    const response = await post(`/v1/runs/${run.id}/complete`, test.tokens.agent);
    expect(response.json()).toMatchObject({ run: { status: 'completed' }, gate: null });
    const again = await post(`/v1/runs/${run.id}/complete`, test.tokens.agent);
    expect(again.json().run.status).toBe('completed');
    const audit = await test.services.audit.query({ subject: run.id });
    expect(audit.items.map((event) => event.kind)).toEqual(['run.created', 'run.completed']);
  });

  it('asks for a final review below full autonomy; approving it completes the run', async () => {
    const run = await runWith('review');
    const response = (await post(`/v1/runs/${run.id}/complete`, test.tokens.agent)).json();
    expect(response.run.status).toBe('waiting');
    const gate = response.gate as Gate;
    expect(gate).toMatchObject({
      type: 'phase_review',
      context: { jobComplete: true, freezeContext: 'job_complete' },
    });
    const retry = (await post(`/v1/runs/${run.id}/complete`, test.tokens.agent)).json();
    expect(retry.gate.id).toBe(gate.id);
    await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    const detail = await runOf(run.id);
    expect(detail.run.status).toBe('completed');
    expect(detail.resume).toMatchObject({ plan: { next: 'completed' } });
    const kinds = (await test.services.audit.query({ subject: run.id })).items.map((event) => event.kind);
    expect(kinds).toEqual(['run.created', 'run.complete_requested', 'run.completed']);
  });

  it.each([
    ['rejected', { option: 'reject', reason: 'The summary is missing' }],
    ['sent back with changes requested', { option: 'request_changes', feedback: 'Add the summary' }],
  ] as const)('does not complete a run whose final review was %s', async (_how, decision) => {
    const run = await runWith('review');
    const gate = (await post(`/v1/runs/${run.id}/complete`, test.tokens.agent)).json().gate as Gate;
    const decided = await decideTestGate(test, test.tokens.developer, gate.id, decision);
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().gate.status).not.toBe('approved');
    expect((await runOf(run.id)).run.status).toBe('running');
    const kinds = (await test.services.audit.query({ subject: run.id })).items.map((event) => event.kind);
    expect(kinds).not.toContain('run.completed');
    const again = (await post(`/v1/runs/${run.id}/complete`, test.tokens.agent)).json();
    expect(again.run.status).toBe('waiting');
    expect(again.gate.id).not.toBe(gate.id);
  });

  it("lets only the run's own agent report checkpoints and completion", async () => {
    const run = await runWith('partial');
    const before = await snapshotState(test.store);
    expect(
      (await checkpoint(run.id, { phase: 1, type: 'strategic' }, test.tokens.developer)).statusCode,
    ).toBe(403);
    expect(
      (await checkpoint(run.id, { phase: 1, type: 'strategic' }, test.tokens.otherAgent)).statusCode,
    ).toBe(404);
    expect((await post(`/v1/runs/${run.id}/complete`, test.tokens.admin)).statusCode).toBe(403);
    expect((await post(`/v1/runs/${run.id}/complete`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await checkpoint(run.id, { phase: 0, type: 'strategic' })).statusCode).toBe(400);
    expect(await snapshotState(test.store)).toBe(before);
  });
});
