import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, insertTestRun, openTestGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('an agent withdrawing its request on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test);
  }

  function withdraw(gateId: string, token: string, payload: object = {}) {
    return test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/withdraw`,
      headers: bearer(token),
      payload,
    });
  }

  async function auditOf(subject: string) {
    return (await test.services.audit.query({ subject })).items;
  }

  it('cancels its pending gate, wakes the waiter, puts the run back to running and audits who and why', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, { runId: run.id, tool: 'shell', args: { command: 'make' } });
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('waiting');
    const waiting = test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}/wait?timeoutMs=10000`,
      headers: bearer(test.tokens.agent),
    });

    const response = await withdraw(gateId, test.tokens.agent, { reason: 'the user\u202e cancelled' });

    expect(response.statusCode).toBe(200);
    const by = `agent:${test.ids.agentId}`;
    expect(response.json().gate).toMatchObject({
      id: gateId,
      status: 'cancelled',
      decision: { option: 'cancel', outcome: 'cancelled', decidedBy: by },
    });
    // Hidden characters in the agent's text are shown as markers, as everywhere else.
    const reason: string = response.json().gate.decision.reason;
    expect(reason).not.toContain('\u202e');
    expect(reason).toMatch(/^the user.+ cancelled$/);
    expect((await waiting).json()).toMatchObject({ outcome: 'cancelled', gate: { status: 'cancelled' } });
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('running');
    const cancelled = (await auditOf(gateId)).find((event) => event.kind === 'gate.cancelled');
    expect(cancelled).toMatchObject({ actor: by, data: { runId: run.id, reason, withdrawn: true } });
  });

  it('says so in its own words when the agent gives no reason', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const response = await withdraw(gateId, test.tokens.agent);
    expect(response.json().gate.decision.reason).toBe('the agent withdrew its request');
  });

  it('never ends a decided gate, and a person cannot decide a withdrawn one', async () => {
    await start();
    const decided = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    await decideTestGate(test, test.tokens.developer, decided, { option: 'reject', reason: 'no' });
    const late = await withdraw(decided, test.tokens.agent);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'GATE_NOT_PENDING', details: { status: 'rejected' } });
    expect((await auditOf(decided)).map((event) => event.kind)).toEqual(['gate.opened', 'gate.decided']);

    const withdrawn = await openTestGate(test, { tool: 'shell', args: { command: 'make test' } });
    expect((await withdraw(withdrawn, test.tokens.agent)).statusCode).toBe(200);
    const after = await decideTestGate(test, test.tokens.developer, withdrawn, { option: 'approve' });
    expect(after.statusCode).toBe(409);
    expect((await test.store.read((tx) => tx.getGate(withdrawn)))?.status).toBe('cancelled');
  });

  it('never ends a review of the agent’s work: a phase review stays pending and the run stays frozen', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const checkpoint = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${run.id}/checkpoint`,
      headers: bearer(test.tokens.agent),
      payload: { phase: 1, type: 'strategic' },
    });
    expect(checkpoint.statusCode, checkpoint.body).toBe(200);
    const review = checkpoint.json().gate;
    expect(review).toMatchObject({ type: 'phase_review', status: 'pending' });
    const response = await withdraw(review.id, test.tokens.agent);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { gateId: review.id, type: 'phase_review' },
    });
    expect((await test.store.read((tx) => tx.getGate(review.id)))?.status).toBe('pending');
    const held = await test.app.inject({
      method: 'POST',
      url: '/v1/gates',
      headers: bearer(test.tokens.agent),
      payload: { runId: run.id, tool: 'shell', args: { command: 'make' } },
    });
    expect(held.json().error).toMatchObject({ code: 'RUN_HELD', details: { reason: 'phase_review' } });
  });

  it.each([
    'intent_approval',
    'phase_review',
    'confidence_threshold',
    'destructive_action',
    'recovery_escalation',
    'false_positive_override',
  ])('never ends its run’s %s gate: INVALID_TRANSITION, the gate stays pending', async (type) => {
    await start();
    const run = await insertTestRun(test);
    const agentId = test.ids.agentId;
    const gate = await test.services.gates.open({
      type,
      runId: run.id,
      agentId,
      requestedBy: `agent:${agentId}`,
      operation: `a ${type} gate of the run`,
    });
    expect(gate).toMatchObject({ type, status: 'pending', agentId, runId: run.id });

    const response = await withdraw(gate.id, test.tokens.agent, { reason: 'not needed any more' });

    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { gateId: gate.id, type },
    });
    expect((await test.store.read((tx) => tx.getGate(gate.id)))?.status).toBe('pending');
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('waiting');
    expect((await auditOf(gate.id)).map((event) => event.kind)).not.toContain('gate.cancelled');
  });

  it("refuses people, another agent's gate (as if unknown) and a reason over 2,000 characters, writing nothing", async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const person = await withdraw(gateId, test.tokens.developer);
    expect(person.statusCode).toBe(403);
    const other = await withdraw(gateId, test.tokens.otherAgent);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('NOT_FOUND');
    const long = await withdraw(gateId, test.tokens.agent, { reason: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details.fields).toEqual([expect.objectContaining({ field: 'reason' })]);
    const unknownField = await withdraw(gateId, test.tokens.agent, { force: true });
    expect(unknownField.statusCode).toBe(400);
    expect((await test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');
    expect((await auditOf(gateId)).map((event) => event.kind)).toEqual(['gate.opened']);
  });
});
