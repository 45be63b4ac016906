import { createFakeClock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate, postGate } from '../testing/gates.js';
import { approveTestPlan, createRunViaApi, postIntervention } from '../testing/runs.js';
import { snapshotState } from '../testing/state-snapshot.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const SHELL = { tool: 'shell', args: { command: 'rm -rf build' } };

describe.each(dialects)('interventions on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;

  beforeAll(async () => {
    test = await createTestApp({
      dialect,
      clock: createFakeClock(),
      config: { sweepIntervalMs: 60_000, pausedRunHoldMs: 300 },
    });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  async function statusOf(runId: string): Promise<string> {
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${runId}`,
      headers: bearer(test.tokens.viewer),
    });
    return response.json().run.status;
  }
  async function gateStatus(gateId: string): Promise<string | undefined> {
    return (await test.store.read((tx) => tx.getGate(gateId)))?.status;
  }

  it('pauses a running run and resumes it, each audited and announced on the run', async () => {
    const run = await createRunViaApi(test);
    const paused = await postIntervention(test, run.id, { kind: 'pause', instruction: 'hold on' });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({
      run: { status: 'paused' },
      intervention: { kind: 'pause', instruction: 'hold on', by: `user:${test.ids.developerId}` },
    });
    const resumed = await postIntervention(test, run.id, { kind: 'resume' });
    expect(resumed.json().run.status).toBe('running');
    const kinds = (await test.services.audit.query({ subject: run.id })).items.map((event) => event.kind);
    expect(kinds).toEqual(['run.created', 'run.paused', 'run.resumed']);
    const events = await test.store.listStreamEvents({ afterSeq: 0, runId: run.id });
    expect(events.filter((event) => event.type === 'intervention').map((event) => event.data.kind)).toEqual([
      'pause',
      'resume',
    ]);
    expect(events.filter((event) => event.type === 'run.status').map((event) => event.data.status)).toEqual([
      'running',
      'paused',
      'running',
    ]);
  });

  it('resumes into waiting when a gate of the run is still pending', async () => {
    const run = await createRunViaApi(test);
    await approveTestPlan(test, run.id);
    await openTestGate(test, { runId: run.id, ...SHELL });
    expect((await postIntervention(test, run.id, { kind: 'pause' })).json().run.status).toBe('paused');
    expect((await postIntervention(test, run.id, { kind: 'resume' })).json().run.status).toBe('waiting');
  });

  it('refuses transitions the status does not allow with INVALID_TRANSITION naming the status', async () => {
    const run = await createRunViaApi(test);
    const resume = await postIntervention(test, run.id, { kind: 'resume' });
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'running' } });
    expect(resume.json().error.message).toContain('running');
    await postIntervention(test, run.id, { kind: 'stop' });
    for (const kind of ['pause', 'resume', 'stop', 'steer']) {
      const response = await postIntervention(test, run.id, { kind, instruction: 'again' });
      expect(response.json().error).toMatchObject({
        code: 'INVALID_TRANSITION',
        details: { status: 'stopped' },
      });
    }
  });

  it('stops a run: every pending gate is cancelled and every further request fails closed', async () => {
    const run = await createRunViaApi(test);
    await approveTestPlan(test, run.id);
    const first = await openTestGate(test, { runId: run.id, ...SHELL });
    const second = await openTestGate(test, { runId: run.id, tool: 'delete_file', args: { path: 'a.txt' } });
    const elsewhere = await openTestGate(test, SHELL);
    const stopped = await postIntervention(test, run.id, { kind: 'stop', instruction: 'wrong branch' });
    expect(stopped.json().run.status).toBe('stopped');
    expect(await gateStatus(first)).toBe('cancelled');
    expect(await gateStatus(second)).toBe('cancelled');
    expect(await gateStatus(elsewhere)).toBe('pending');
    const audit = await test.services.audit.query({ subject: run.id });
    expect(audit.items.at(-1)).toMatchObject({ kind: 'run.stopped', data: { cancelled: [first, second] } });
    const request = await postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'x' } });
    expect(request.statusCode).toBe(409);
    expect(request.json().error.code).toBe('RUN_STOPPED');
    const decide = await decideTestGate(test, test.tokens.developer, first, { option: 'approve' });
    expect(decide.statusCode).toBe(409);
    const checkpoint = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${run.id}/checkpoint`,
      headers: bearer(test.tokens.agent),
      payload: { phase: 1, type: 'strategic' },
    });
    expect(checkpoint.json().error.code).toBe('RUN_STOPPED');
  });

  it("steers a run: the instruction joins the run's instructions, hidden characters as markers, and reaches the agent once", async () => {
    const run = await createRunViaApi(test);
    const response = await postIntervention(test, run.id, {
      kind: 'steer',
      instruction: 'Use the staging database\u202e\u0007 instead.\nThen rerun the tests.',
    });
    expect(response.statusCode).toBe(200);
    const instruction = 'Use the staging database⟨U+202E⟩⟨U+0007⟩ instead.\nThen rerun the tests.';
    expect(response.json().run.instructions).toEqual([instruction]);
    const first = (await postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'x' } })).json();
    expect(first.interventions).toEqual([{ kind: 'steer', instruction, at: test.clock.now() }]);
    const second = (await postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'y' } })).json();
    expect(second.interventions).toEqual([]);
  });

  it('requires a non-empty instruction of at most 10,000 characters to steer, writing nothing otherwise', async () => {
    const run = await createRunViaApi(test);
    const before = await snapshotState(test.store);
    for (const body of [
      { kind: 'steer' },
      { kind: 'steer', instruction: '   ' },
      { kind: 'steer', instruction: 'x'.repeat(10_001) },
    ]) {
      const response = await postIntervention(test, run.id, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details.fields[0].field).toBe('instruction');
    }
    expect((await postIntervention(test, run.id, { kind: 'dance' })).statusCode).toBe(400);
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('is for people from developer up: agent tokens get 403, viewers ROLE_TOO_LOW', async () => {
    const run = await createRunViaApi(test);
    const before = await snapshotState(test.store);
    const agent = await postIntervention(test, run.id, { kind: 'pause' }, test.tokens.agent);
    expect(agent.statusCode).toBe(403);
    expect(agent.json().error.code).toBe('FORBIDDEN');
    const viewer = await postIntervention(test, run.id, { kind: 'stop' }, test.tokens.viewer);
    expect(viewer.json().error.code).toBe('ROLE_TOO_LOW');
    expect(await snapshotState(test.store)).toBe(before);
    expect((await postIntervention(test, 'run_missing', { kind: 'pause' })).statusCode).toBe(404);
  });

  it('lists interventions after a time, for the run’s agent and people', async () => {
    const run = await createRunViaApi(test);
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'first' });
    const cut = test.clock.now();
    test.clock.advance(1000);
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'second' });
    const url = `/v1/runs/${run.id}/interventions`;
    const all = await test.app.inject({ method: 'GET', url, headers: bearer(test.tokens.viewer) });
    expect(all.json().items.map((item: { instruction: string }) => item.instruction)).toEqual([
      'first',
      'second',
    ]);
    const later = await test.app.inject({
      method: 'GET',
      url: `${url}?after=${cut}`,
      headers: bearer(test.tokens.agent),
    });
    expect(later.json().items.map((item: { instruction: string }) => item.instruction)).toEqual(['second']);
    const other = await test.app.inject({ method: 'GET', url, headers: bearer(test.tokens.otherAgent) });
    expect(other.statusCode).toBe(404);
    expect(await test.services.runs.pendingInterventions(run.id, cut)).toEqual([
      { kind: 'steer', instruction: 'second', at: cut + 1000 },
    ]);
  });

  it('holds the gate request of a paused run until it resumes', async () => {
    const run = await createRunViaApi(test);
    await postIntervention(test, run.id, { kind: 'pause' });
    const held = await postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'x' } });
    expect(held.json().error.code).toBe('RUN_NOT_ACTIVE');
    const pending = postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'x' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await postIntervention(test, run.id, { kind: 'resume' });
    const answer = (await pending).json();
    expect(answer.outcome).toBe('allowed');
    expect(answer.interventions.map((notice: { kind: string }) => notice.kind)).toEqual(['pause', 'resume']);
    expect(await statusOf(run.id)).toBe('running');
  });
});
