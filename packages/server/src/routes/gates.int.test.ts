import { createFakeClock, payloadText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/secrets.js';
import { decideTestGate, insertTestRun, openTestGate, postGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('gate requests on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start(policy = true) {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    if (policy) await useTestPolicy(test);
  }

  function get(url: string, token = test.tokens.viewer) {
    return test.app.inject({ method: 'GET', url, headers: bearer(token) });
  }

  async function gateCount() {
    return test.store.read((tx) => tx.countGates({}));
  }

  it('gates a request, lets a person approve it, and the waiting agent gets approved', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const response = await postGate(
      test,
      { runId: run.id, tool: 'shell', args: { command: 'ls' } },
      { key: 'k1' },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ outcome: 'gated', ruleId: null, interventions: [] });
    expect(body.payloadHash).toBe(sha256Hex(payloadText({ tool: 'shell', args: { command: 'ls' } })));
    expect(body.gate).toMatchObject({
      status: 'pending',
      type: 'tool_call',
      runId: run.id,
      agentId: test.ids.agentId,
    });
    const gateId = body.gate.id as string;
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('waiting');

    const waiting = get(`/v1/gates/${gateId}/wait?timeoutMs=10000`, test.tokens.agent);
    const decided = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      reason: 'fine',
    });
    expect(decided.statusCode).toBe(200);
    const waited = await waiting;
    expect(waited.statusCode).toBe(200);
    expect(waited.json()).toMatchObject({ outcome: 'approved', gate: { status: 'approved' } });
    expect(waited.json().gate.decision).toMatchObject({
      decidedBy: test.ids.developerId,
      payloadHash: body.payloadHash,
    });
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('running');

    const kinds = (await test.services.audit.query({ subject: gateId })).items.map((e) => e.kind);
    expect(kinds).toEqual(['gate.opened', 'gate.decided']);
  });

  it('answers at once when the gate has ended and times out with the gate still pending', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'pwd' } });
    const early = await get(`/v1/gates/${gateId}/wait?timeoutMs=50`, test.tokens.agent);
    expect(early.json()).toMatchObject({ outcome: null, gate: { status: 'pending' } });
    await decideTestGate(test, test.tokens.developer, gateId, { option: 'reject', reason: 'no' });
    const late = await get(`/v1/gates/${gateId}/wait?timeoutMs=60000`, test.tokens.agent);
    expect(late.json()).toMatchObject({ outcome: 'denied', gate: { status: 'rejected' } });
  });

  it('allows and denies by policy without opening a gate, and audits both with their rule', async () => {
    await start();
    const allowed = await postGate(test, { tool: 'read_file', args: { path: 'a.txt' } });
    expect(allowed.json()).toMatchObject({
      outcome: 'allowed',
      gate: null,
      ruleId: 'reads',
      reason: 'Reads are fine.',
    });
    const denied = await postGate(test, { tool: 'drop_database', args: { name: 'prod' } });
    expect(denied.json()).toMatchObject({
      outcome: 'denied',
      gate: null,
      ruleId: 'no-drop',
      reason: 'Never drop databases.',
    });
    expect(await gateCount()).toBe(0);
    const audit = await test.services.audit.query({ actor: `agent:${test.ids.agentId}` });
    expect(audit.items.map((e) => [e.kind, e.data.ruleId])).toEqual([
      ['request.allowed', 'reads'],
      ['request.denied', 'no-drop'],
    ]);
  });

  it('keeps a stream event for a request answered at once in a run only: no stream shows one outside', async () => {
    await start();
    const requestEvents = async () =>
      (await test.store.listStreamEvents({ afterSeq: 0, limit: 500 }))
        .filter((event) => event.type.startsWith('request.'))
        .map((event) => [event.type, event.runId]);
    await postGate(test, { tool: 'read_file', args: { path: 'a.txt' } });
    await postGate(test, { tool: 'drop_database', args: { name: 'prod' } });
    expect(await requestEvents()).toEqual([]);
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    expect((await postGate(test, { runId: run.id, tool: 'read_file', args: {} })).json().outcome).toBe(
      'allowed',
    );
    expect((await postGate(test, { runId: run.id, tool: 'drop_database', args: {} })).json().outcome).toBe(
      'denied',
    );
    expect(await requestEvents()).toEqual([
      ['request.allowed', run.id],
      ['request.denied', run.id],
    ]);
  });

  it('follows the default policy: shell is gated, reads are allowed', async () => {
    await start(false);
    expect((await postGate(test, { tool: 'read_file', args: {} })).json().outcome).toBe('allowed');
    const shell = (await postGate(test, { tool: 'shell', args: { command: 'make' } })).json();
    expect(shell).toMatchObject({ outcome: 'gated', ruleId: 'core-shell-execution' });
  });

  it('returns the first answer for a repeated idempotency key and refuses another body under it', async () => {
    await start();
    const body = { tool: 'shell', args: { command: 'make' } };
    const first = await postGate(test, body, { key: 'same-key' });
    const again = await postGate(test, body, { key: 'same-key' });
    expect(again.json().gate.id).toBe(first.json().gate.id);
    expect(await gateCount()).toBe(1);
    const other = await postGate(test, { tool: 'shell', args: { command: 'rm -rf /' } }, { key: 'same-key' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(await gateCount()).toBe(1);
    const otherAgent = await postGate(test, body, { key: 'same-key', token: test.tokens.otherAgent });
    expect(otherAgent.json().gate.id).not.toBe(first.json().gate.id);
  });

  it('opens exactly one gate for 50 concurrent creates with the same key', async () => {
    await start();
    const body = { tool: 'shell', args: { command: 'deploy.sh' } };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postGate(test, body, { key: 'storm' })),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.json().gate.id)).size).toBe(1);
    expect(await gateCount()).toBe(1);
  });

  it('remembers approve_always for the run until the rule is revoked', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, { runId: run.id, tool: 'edit_file', args: { path: 'src/a.ts' } });
    const decided = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve_always' });
    expect(decided.statusCode).toBe(200);
    const rule = decided.json().rule;
    expect(rule).toMatchObject({ scope: 'run', runId: run.id, tool: 'edit_file', sourceGateId: gateId });

    const next = await postGate(test, { runId: run.id, tool: 'edit_file', args: { path: 'src/b.ts' } });
    expect(next.json()).toMatchObject({ outcome: 'allowed', ruleId: rule.id });
    const otherRun = await insertTestRun(test);
    await approveTestPlan(test, otherRun.id);
    expect((await postGate(test, { runId: otherRun.id, tool: 'edit_file', args: {} })).json().outcome).toBe(
      'gated',
    );
    expect((await get('/v1/rules')).json().rules.map((r: { id: string }) => r.id)).toEqual([rule.id]);

    const revoked = await test.app.inject({
      method: 'DELETE',
      url: `/v1/rules/${rule.id}`,
      headers: bearer(test.tokens.developer),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().rule.revokedBy).toBe(`user:${test.ids.developerId}`);
    expect(
      (await postGate(test, { runId: run.id, tool: 'edit_file', args: { path: 'src/c.ts' } })).json().outcome,
    ).toBe('gated');
    const twice = await test.app.inject({
      method: 'DELETE',
      url: `/v1/rules/${rule.id}`,
      headers: bearer(test.tokens.developer),
    });
    expect(twice.statusCode).toBe(409);
    const kinds = (await test.services.audit.query({ subject: rule.id })).items.map((e) => e.kind);
    expect(kinds).toEqual(['rule.created', 'rule.revoked']);
    expect((await get('/v1/rules?includeRevoked=true')).json().rules).toHaveLength(1);
  });

  it('refuses approve_always for an always-gated action', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'rm -rf build' } });
    const response = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve_always' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_OPTION');
    expect(
      (await test.services.gates.get({ kind: 'user', id: 'x', name: 'x', role: 'admin' }, gateId)).status,
    ).toBe('pending');
  });

  it('applies the run approval mode: manual gates an allowed write, reads stay allowed', async () => {
    await start();
    const manual = await insertTestRun(test, { approvalMode: 'manual' });
    await approveTestPlan(test, manual.id);
    const write = (await postGate(test, { runId: manual.id, tool: 'write_file', args: {} })).json();
    expect(write.outcome).toBe('gated');
    expect((await postGate(test, { runId: manual.id, tool: 'read_file', args: {} })).json().outcome).toBe(
      'allowed',
    );
    const auto = await insertTestRun(test, { approvalMode: 'auto' });
    await approveTestPlan(test, auto.id);
    const medium = (
      await postGate(test, { runId: auto.id, tool: 'write_file', args: {}, confidence: 0.6 })
    ).json();
    expect(medium.gate).toMatchObject({ timeoutAction: 'proceed', timeoutAt: test.clock.now() + 10_000 });
    const high = await postGate(test, { runId: auto.id, tool: 'write_file', args: {}, confidence: 0.9 });
    expect(high.json().outcome).toBe('allowed');
  });

  it('fails closed on a stopped run, refuses finished and foreign runs, and 404s an unknown one', async () => {
    await start();
    const stopped = await insertTestRun(test, { status: 'stopped' });
    const response = await postGate(test, { runId: stopped.id, tool: 'read_file', args: {} });
    expect(response.json().error.code).toBe('RUN_STOPPED');
    const done = await insertTestRun(test, { status: 'completed' });
    expect((await postGate(test, { runId: done.id, tool: 'read_file', args: {} })).json().error.code).toBe(
      'RUN_NOT_ACTIVE',
    );
    const foreign = await insertTestRun(test, { agentId: test.ids.otherAgentId });
    expect((await postGate(test, { runId: foreign.id, tool: 'read_file', args: {} })).statusCode).toBe(404);
    expect((await postGate(test, { runId: 'run_unknown', tool: 'read_file', args: {} })).statusCode).toBe(
      404,
    );
    expect(await gateCount()).toBe(0);
  });

  it('holds a paused run’s request until it resumes, else answers RUN_NOT_ACTIVE paused', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { pausedRunHoldMs: 300 } });
    await useTestPolicy(test);
    const run = await insertTestRun(test, { status: 'paused' });
    const refused = await postGate(test, { runId: run.id, tool: 'read_file', args: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'RUN_NOT_ACTIVE', details: { status: 'paused' } });

    const held = postGate(test, { runId: run.id, tool: 'read_file', args: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await test.store.transaction(async (tx) => {
      const stored = await tx.getRun(run.id);
      if (stored) await tx.updateRun({ ...stored, status: 'running' }, stored.version);
    });
    expect((await held).json().outcome).toBe('allowed');
  });

  it('refuses bad requests naming the field and writes nothing', async () => {
    await start();
    const both = await postGate(test, { tool: 'a', operation: 'b', args: {} });
    expect(both.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'tool' } });
    const outside = await postGate(test, { tool: 'edit', args: {}, artifacts: ['../etc/passwd'] });
    expect(outside.json().error.details.field).toBe('artifacts[0]');
    const unknown = await postGate(test, { tool: 'edit', args: {}, extra: 1 });
    expect(unknown.statusCode).toBe(400);
    const type = await postGate(test, { tool: 'edit', args: {}, gateType: 'no_such_type' });
    expect(type.json().error.code).toBe('UNKNOWN_GATE_TYPE');
    const proceed = await postGate(test, {
      tool: 'shell',
      args: { command: 'rm -rf x' },
      timeoutSeconds: 5,
      timeoutAction: 'proceed',
    });
    expect(proceed.json().error.code).toBe('TIMEOUT_ACTION_NOT_ALLOWED');
    expect(await gateCount()).toBe(0);
    expect(
      (await test.services.audit.query({})).items.filter((e) => e.kind.startsWith('request.')),
    ).toHaveLength(0);
  });

  it('shows hidden characters in the title and context as markers, never as themselves', async () => {
    await start();
    const gateId = await openTestGate(test, {
      tool: 'shell',
      args: { command: 'ls' },
      title: 'list\u202e files\x1b[31m now',
      context: { note: 'hi\u200b there' },
    });
    const view = (await get(`/v1/gates/${gateId}`)).json();
    expect(view.gate.title).toBe('list⟨U+202E⟩ files⟨U+001B⟩[31m now');
    expect(view.gate.context.note).toBe('hi⟨U+200B⟩ there');
    expect(view.briefing).not.toBeNull();
  });

  it('lets agents read, list and wait only on their own gates, and never decide', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'ls' } });
    expect((await get(`/v1/gates/${gateId}`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await get(`/v1/gates/${gateId}/wait?timeoutMs=0`, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await get('/v1/gates', test.tokens.otherAgent)).json().items).toEqual([]);
    expect((await get(`/v1/gates?agentId=${test.ids.agentId}`, test.tokens.otherAgent)).statusCode).toBe(403);
    expect((await get('/v1/gates', test.tokens.agent)).json().items).toHaveLength(1);
    const decide = await decideTestGate(test, test.tokens.agent, gateId, { option: 'approve' });
    expect(decide.statusCode).toBe(403);
    const batch = await test.app.inject({
      method: 'POST',
      url: '/v1/gates/decide-batch',
      headers: bearer(test.tokens.agent),
      payload: { gateIds: [gateId], option: 'approve' },
    });
    expect(batch.statusCode).toBe(403);
    const asPerson = await postGate(test, { tool: 'shell', args: {} }, { token: test.tokens.admin });
    expect(asPerson.statusCode).toBe(403);
    expect((await get(`/v1/gates/${gateId}`)).json().gate.status).toBe('pending');
  });

  it('lists with filters and pages with a cursor', async () => {
    await start();
    for (const command of ['a', 'b', 'c']) {
      await openTestGate(test, { tool: 'shell', args: { command } });
      test.clock.advance(10);
    }
    await openTestGate(test, { tool: 'deploy', args: {} }, { token: test.tokens.otherAgent });
    const first = (await get('/v1/gates?limit=2&status=pending')).json();
    expect(first.items).toHaveLength(2);
    const second = (await get(`/v1/gates?limit=2&status=pending&cursor=${first.nextCursor}`)).json();
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect((await get(`/v1/gates?agentId=${test.ids.otherAgentId}`)).json().items).toHaveLength(1);
    expect((await get('/v1/gates?status=approved')).json().items).toHaveLength(0);
  });
});
