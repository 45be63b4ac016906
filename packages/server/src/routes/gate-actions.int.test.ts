import { sign, verify } from 'node:crypto';
import { createFakeClock, payloadText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/secrets.js';
import { decideTestGate, insertTestRun, openTestGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { registerTestKey } from '../testing/signing-keys.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('deciding gates on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test);
  }

  function post(url: string, token: string, payload: unknown) {
    return test.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
  }

  async function gateOf(gateId: string) {
    return test.store.read((tx) => tx.getGate(gateId));
  }

  async function auditKinds(subject: string) {
    return (await test.services.audit.query({ subject })).items.map((event) => event.kind);
  }

  it('lets exactly one of 8 concurrent deciders win; the rest get 409 naming the winner', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'make' } });
    const tokens = [test.tokens.developer, test.tokens.techLead, test.tokens.admin];
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        decideTestGate(test, tokens[i % 3] as string, gateId, {
          option: i % 2 === 0 ? 'approve' : 'reject',
          reason: `r${i}`,
        }),
      ),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    const losers = responses.filter((r) => r.statusCode === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(7);
    const decision = winners[0]?.json().decision;
    for (const loser of losers) {
      expect(loser.json().error).toMatchObject({
        code: 'GATE_ALREADY_DECIDED',
        details: {
          winner: { decidedBy: decision.decidedBy, option: decision.option, decidedAt: decision.decidedAt },
        },
      });
    }
    expect((await auditKinds(gateId)).filter((kind) => kind === 'gate.decided')).toHaveLength(1);
  });

  it('needs two distinct approvers on a 2-of-3 gate', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'deploy', args: { env: 'prod' } });
    const first = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      decision: null,
      gate: { status: 'pending', approvals: [{ by: test.ids.developerId }] },
    });
    const again = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    expect(again.json().error.code).toBe('DUPLICATE_APPROVER');
    const second = await decideTestGate(test, test.tokens.techLead, gateId, { option: 'approve' });
    expect(second.json()).toMatchObject({
      gate: { status: 'approved' },
      decision: { decidedBy: test.ids.techLeadId },
    });
    expect(await auditKinds(gateId)).toEqual(['gate.opened', 'gate.vote', 'gate.decided']);
    const late = await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve' });
    expect(late.json().error.code).toBe('GATE_ALREADY_DECIDED');
  });

  it('counts racing N-of-M votes from different people without losing one', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'deploy', args: { env: 'staging' } });
    const responses = await Promise.all(
      [test.tokens.developer, test.tokens.techLead].map((token) =>
        decideTestGate(test, token, gateId, { option: 'approve' }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const gate = await gateOf(gateId);
    expect(gate?.status).toBe('approved');
    expect(gate?.approvals.map((vote) => vote.by).sort()).toEqual(
      [test.ids.techLeadId, test.ids.developerId].sort(),
    );
  });

  it('refuses a decision after the deadline with GATE_EXPIRED, before and after the sweep', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 't_deny', args: {} });
    test.clock.advance(60_000);
    const late = await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('GATE_EXPIRED');
    expect((await gateOf(gateId))?.status).toBe('pending');
    await test.services.timeouts.sweepOnce();
    const after = await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve' });
    expect(after.json().error.code).toBe('GATE_EXPIRED');
    expect((await gateOf(gateId))?.status).toBe('expired');
  });

  it('requires a valid Ed25519 signature on a signed gate and keeps it verifiable in the audit', async () => {
    await start();
    const { raw, privateKey } = await registerTestKey(test.app, test.tokens.developer);
    const gateId = await openTestGate(test, { tool: 'wire_money', args: { amount: 100 } });
    const gate = await gateOf(gateId);
    expect(gate?.signatureRequired).toBe(true);

    const missing = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('SIGNATURE_REQUIRED');
    const wrongText = sign(null, Buffer.from('something else'), privateKey).toString('base64');
    const bad = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve',
      signature: wrongText,
    });
    expect(bad.json().error.code).toBe('SIGNATURE_INVALID');
    const text = signedDecisionText({ gateId, option: 'approve', payloadHash: gate?.payloadHash ?? null });
    const signature = sign(null, Buffer.from(text), privateKey).toString('base64');
    const otherPerson = await decideTestGate(test, test.tokens.techLead, gateId, {
      option: 'approve',
      signature,
    });
    expect(otherPerson.json().error.code).toBe('SIGNATURE_INVALID');
    const good = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve', signature });
    expect(good.statusCode).toBe(200);
    expect(good.json().decision.signature).toBe(signature);

    const event = (await test.services.audit.query({ kind: 'gate.decided', subject: gateId })).items[0];
    expect(event?.data).toMatchObject({
      signature,
      publicKey: raw,
      option: 'approve',
      payloadHash: gate?.payloadHash,
    });
    const data = event?.data as { signature: string; publicKey: string; option: string; payloadHash: string };
    const rebuilt = signedDecisionText({
      gateId: event?.subject as string,
      option: data.option,
      payloadHash: data.payloadHash,
    });
    const key = {
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        Buffer.from(data.publicKey, 'base64'),
      ]),
      format: 'der' as const,
      type: 'spki' as const,
    };
    expect(verify(null, Buffer.from(rebuilt), key, Buffer.from(data.signature, 'base64'))).toBe(true);
  });

  it('uses a one-off approval once and only for the approved action', async () => {
    await start();
    const action = { tool: 'shell', args: { command: 'make release' } };
    const gateId = await openTestGate(test, action);
    const hash = sha256Hex(payloadText(action));
    const early = await post(`/v1/gates/${gateId}/consume`, test.tokens.agent, { payloadHash: hash });
    expect(early.json().error.code).toBe('INVALID_TRANSITION');
    await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    const other = await post(`/v1/gates/${gateId}/consume`, test.tokens.agent, {
      payloadHash: 'b'.repeat(64),
    });
    expect(other.json().error.code).toBe('PAYLOAD_MISMATCH');
    const foreign = await post(`/v1/gates/${gateId}/consume`, test.tokens.otherAgent, { payloadHash: hash });
    expect(foreign.statusCode).toBe(404);
    const first = await post(`/v1/gates/${gateId}/consume`, test.tokens.agent, { payloadHash: hash });
    expect(first.json()).toMatchObject({ oneOff: true, consumedAt: test.clock.now() });
    const second = await post(`/v1/gates/${gateId}/consume`, test.tokens.agent, { payloadHash: hash });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatchObject({
      code: 'APPROVAL_USED',
      details: { consumedAt: test.clock.now() },
    });
    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.viewer),
    });
    expect(view.json().consumedAt).toBe(test.clock.now());
    expect((await auditKinds(gateId)).filter((kind) => kind === 'gate.consumed')).toHaveLength(1);
  });

  it('stores a steer on the run, delivers it verbatim, and reopens the gate once when the agent cannot apply it', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, {
      runId: run.id,
      tool: 'shell',
      args: { command: 'npm i' },
      context: { why: 'deps' },
    });
    const instructions = 'Use pnpm instead.\nKeep the lock file.';
    const steered = await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'steer',
      instructions,
    });
    expect(steered.json().gate.status).toBe('steered');
    const waited = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}/wait`,
      headers: bearer(test.tokens.agent),
    });
    expect(waited.json()).toMatchObject({ outcome: 'steered', gate: { decision: { instructions } } });
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.instructions).toEqual([instructions]);

    const failed = await post(`/v1/gates/${gateId}/steer-failed`, test.tokens.agent, {
      reason: 'pnpm is not installed',
    });
    expect(failed.statusCode).toBe(200);
    const reopened = failed.json().gate;
    expect(reopened).toMatchObject({
      status: 'pending',
      runId: run.id,
      payloadHash: steered.json().gate.payloadHash,
    });
    expect(reopened.context).toMatchObject({
      why: 'deps',
      failedSteer: { previousGateId: gateId, instructions, reason: 'pnpm is not installed' },
    });
    const again = await post(`/v1/gates/${gateId}/steer-failed`, test.tokens.agent, { reason: 'still no' });
    expect(again.json().gate.id).toBe(reopened.id);
    expect(await auditKinds(gateId)).toEqual(['gate.opened', 'gate.decided', 'gate.steer_failed']);
    expect(await auditKinds(reopened.id)).toEqual(['gate.opened']);
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('waiting');
  });

  it('decides a batch gate by gate and reports each refusal', async () => {
    await start();
    const plain = await openTestGate(test, { tool: 'shell', args: { command: 'a' } });
    const signed = await openTestGate(test, { tool: 'wire_money', args: { amount: 1 } });
    const done = await openTestGate(test, { tool: 'shell', args: { command: 'b' } });
    await decideTestGate(test, test.tokens.developer, done, { option: 'reject' });
    const response = await post('/v1/gates/decide-batch', test.tokens.techLead, {
      gateIds: [plain, signed, done, 'gate_missing'],
      option: 'approve',
      reason: 'batch',
    });
    expect(response.statusCode).toBe(200);
    const byId = Object.fromEntries(response.json().results.map((r: { gateId: string }) => [r.gateId, r]));
    expect(byId[plain]).toEqual({ gateId: plain, ok: true, status: 'approved' });
    expect(byId[signed]).toMatchObject({
      ok: false,
      error: { code: 'BATCH_NOT_ALLOWED', details: { rule: 'signature' } },
    });
    expect(byId[done]).toMatchObject({ ok: false, error: { code: 'GATE_ALREADY_DECIDED' } });
    expect(byId.gate_missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const tooMany = await post('/v1/gates/decide-batch', test.tokens.techLead, {
      gateIds: Array.from({ length: 101 }, (_, i) => `gate_${i}`),
      option: 'approve',
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('snoozes a pending gate within 30 days and refuses ended or expired ones', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 't_deny', args: {} });
    const extended = await post(`/v1/gates/${gateId}/extend`, test.tokens.developer, { seconds: 3600 });
    expect(extended.json().gate.timeoutAt).toBe(test.clock.now() + 3_600_000);
    const tooLong = await post(`/v1/gates/${gateId}/extend`, test.tokens.developer, {
      seconds: 31 * 24 * 3600,
    });
    expect(tooLong.statusCode).toBe(400);
    test.clock.advance(3_600_000);
    const late = await post(`/v1/gates/${gateId}/extend`, test.tokens.developer, { seconds: 60 });
    expect(late.json().error.code).toBe('GATE_EXPIRED');
    const other = await openTestGate(test, { tool: 'shell', args: { command: 'x' } });
    await decideTestGate(test, test.tokens.developer, other, { option: 'reject' });
    const ended = await post(`/v1/gates/${other}/extend`, test.tokens.developer, { seconds: 60 });
    expect(ended.json().error.code).toBe('GATE_NOT_PENDING');
    expect(await auditKinds(gateId)).toEqual(['gate.opened', 'gate.extended']);
  });

  it('assigns as a tech lead, lets an assignee delegate, and keeps others from deciding', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'x' } });
    const byDeveloper = await post(`/v1/gates/${gateId}/assign`, test.tokens.developer, {
      assignees: [test.ids.developerId],
    });
    expect(byDeveloper.statusCode).toBe(403);
    const assigned = await post(`/v1/gates/${gateId}/assign`, test.tokens.techLead, {
      assignees: [test.ids.developerId],
    });
    expect(assigned.json().gate.assignees).toEqual([test.ids.developerId]);
    const notAssignee = await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve' });
    expect(notAssignee.json().error.code).toBe('NOT_ASSIGNEE');
    const viewer = await post(`/v1/gates/${gateId}/assign`, test.tokens.techLead, {
      assignees: [test.ids.viewerId],
    });
    expect(viewer.json().error.details.field).toBe('assignees[0]');
    const delegated = await post(`/v1/gates/${gateId}/assign`, test.tokens.developer, {
      assignees: [test.ids.adminId],
    });
    expect(delegated.json().gate.assignees).toEqual([test.ids.adminId]);
    expect((await decideTestGate(test, test.tokens.admin, gateId, { option: 'approve' })).statusCode).toBe(
      200,
    );
    expect((await auditKinds(gateId)).filter((kind) => kind === 'gate.assigned')).toHaveLength(2);
  });

  it('refuses options the gate does not have and steers without instructions, writing nothing', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 'shell', args: { command: 'x' } });
    const unknown = await decideTestGate(test, test.tokens.developer, gateId, { option: 'retry' });
    expect(unknown.json().error).toMatchObject({
      code: 'INVALID_OPTION',
      details: { options: ['approve', 'approve_always', 'reject', 'steer'] },
    });
    const empty = await decideTestGate(test, test.tokens.developer, gateId, { option: 'steer' });
    expect(empty.json().error.details.field).toBe('instructions');
    const viewer = await decideTestGate(test, test.tokens.viewer, gateId, { option: 'approve' });
    expect(viewer.json().error.code).toBe('ROLE_TOO_LOW');
    expect(await auditKinds(gateId)).toEqual(['gate.opened']);
    expect((await gateOf(gateId))?.status).toBe('pending');
  });
});
