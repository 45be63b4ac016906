import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { ApprovalDenied, ApprovalSteered, isGatehouseApiError } from './errors.js';
import { payloadHash } from './payload.js';
import { type LiveServer, startLiveServer } from './testing/live-server.js';

let server: LiveServer;
let gate: Gatehouse;

beforeEach(async () => {
  server = await startLiveServer();
  gate = new Gatehouse({
    url: server.url,
    token: server.test.tokens.agent,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
  });
});

afterEach(async () => {
  await server.close();
});

const writeFile = { tool: 'write_file', args: { path: 'src/app.ts', content: 'export {};\n' } };

describe('request', () => {
  it('answers an allowed request at once, without a gate', async () => {
    const answer = await gate.request({ tool: 'read_file', args: { path: 'README.md' } });
    expect(answer).toMatchObject({ outcome: 'approved', decidedBy: 'policy', gateId: null, oneOff: false });
    expect(answer.ruleId).toBe('cowork-auto-approved');
    expect(answer.payloadHash).toBe(await payloadHash({ tool: 'read_file', args: { path: 'README.md' } }));
  });

  it('waits for a person and returns approved, bound to the exact action', async () => {
    const pending = gate.request(writeFile);
    const open = await server.pendingGate();
    expect((await server.decide(open.id, { option: 'approve' })).status).toBe(200);
    const answer = await pending;
    expect(answer).toMatchObject({
      outcome: 'approved',
      option: 'approve',
      gateId: open.id,
      decidedBy: server.test.ids.developerId,
      oneOff: true,
    });
    expect(answer.payloadHash).toBe(await payloadHash(writeFile));
  });

  it('returns denied with the reason as a value', async () => {
    const pending = gate.request(writeFile);
    await server.decide((await server.pendingGate()).id, { option: 'reject', reason: 'not in this sprint' });
    expect(await pending).toMatchObject({ outcome: 'denied', reason: 'not in this sprint' });
  });

  it('returns steered with the instructions as a value', async () => {
    const pending = gate.request(writeFile);
    await server.decide((await server.pendingGate()).id, {
      option: 'steer',
      instructions: 'write src/app.js instead',
    });
    expect(await pending).toMatchObject({ outcome: 'steered', instructions: 'write src/app.js instead' });
  });

  it('returns a gate-specific option as the outcome', async () => {
    const pending = gate.request({ operation: 'finish the import', event: 'constraint_violation', args: {} });
    const open = await server.pendingGate();
    expect(open.type).toBe('constraint_exception');
    await server.decide(open.id, { option: 'reduce_scope', reason: 'skip the archive' });
    expect(await pending).toMatchObject({
      outcome: 'reduce_scope',
      option: 'reduce_scope',
      reason: 'skip the archive',
    });
  });

  it('stops waiting when the signal aborts and leaves the gate open', async () => {
    const controller = new AbortController();
    const pending = gate.request({ ...writeFile, signal: controller.signal });
    const open = await server.pendingGate();
    controller.abort(new Error('agent shutting down'));
    await expect(pending).rejects.toThrow('agent shutting down');
    const { body } = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${open.id}`);
    expect(body.gate.status).toBe('pending');
  });

  it('rebuilds refusals as typed errors with the wire code', async () => {
    const other = new Gatehouse({ url: server.url, token: 'gha_not_a_token' });
    const error = await other.request(writeFile).catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'UNAUTHENTICATED')).toBe(true);
    expect(error).toMatchObject({ status: 401 });
  });
});

describe('approvals bind to the action', () => {
  it('refuses to run arguments that changed while the person was deciding', async () => {
    const ran: string[] = [];
    const safeWrite = gate.withApproval(async (file: { path: string }) => ran.push(file.path), {
      tool: 'write_file',
      args: (file) => ({ path: file.path }),
    });
    const file = { path: 'docs/notes.md' };
    const pending = safeWrite(file);
    const open = await server.pendingGate();
    file.path = '.env';
    await server.decide(open.id, { option: 'approve' });
    const error = await pending.catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'PAYLOAD_MISMATCH')).toBe(true);
    expect(ran).toEqual([]);
  });

  it('binds to arguments with invisible characters and dates exactly as sent', async () => {
    const args = { path: 'notes\u202e.md', content: 'a\u200bb\u0007', at: new Date(Date.UTC(2026, 0, 1)) };
    const pending = gate.request({ tool: 'write_file', args });
    await server.decide((await server.pendingGate()).id, { option: 'approve' });
    const answer = await pending;
    expect(answer.outcome).toBe('approved');
    expect(answer.payloadHash).toBe(await payloadHash({ tool: 'write_file', args }));
    await gate.consume(answer, { tool: 'write_file', args });
  });

  it('uses a one-off approval once', async () => {
    const ran: string[] = [];
    const safeDelete = gate.withApproval(async (path: string) => ran.push(path), {
      tool: 'delete_file',
      args: (path) => ({ path }),
    });
    const pending = safeDelete('build/');
    const open = await server.pendingGate();
    await server.decide(open.id, { option: 'approve' });
    expect(await pending).toBe(1);
    expect(ran).toEqual(['build/']);
    const answer = await gate.waitForGate(open.id);
    const again = await gate
      .consume(answer, { tool: 'delete_file', args: { path: 'build/' } })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(again, 'APPROVAL_USED')).toBe(true);
  });

  it('does not use up an "approve always" answer, and later calls are allowed at once', async () => {
    const pending = gate.request(writeFile);
    await server.decide((await server.pendingGate()).id, {
      option: 'approve_always',
      remember: { scope: 'agent' },
    });
    expect(await pending).toMatchObject({ outcome: 'approved', option: 'approve_always', oneOff: false });
    const later = await gate.request(writeFile);
    expect(later).toMatchObject({ outcome: 'approved', decidedBy: 'policy', gateId: null });
    expect(later.ruleId).toMatch(/^rule_/);
  });

  it('lets the server refuse a consume for another payload', async () => {
    const pending = gate.request(writeFile);
    const open = await server.pendingGate();
    await server.decide(open.id, { option: 'approve' });
    await pending;
    const other = await payloadHash({ tool: 'write_file', args: { path: '.env', content: 'x' } });
    const refused = await server.call(server.test.tokens.agent, 'POST', `/v1/gates/${open.id}/consume`, {
      payloadHash: other,
    });
    expect(refused.body.error.code).toBe('PAYLOAD_MISMATCH');
  });

  it('throws typed errors from the wrapper and returns values in result mode', async () => {
    const write = gate.withApproval(async () => 'written', {
      tool: 'write_file',
      args: () => ({ path: 'a' }),
    });
    const denied = write();
    await server.decide((await server.pendingGate()).id, { option: 'reject', reason: 'no' });
    await expect(denied).rejects.toBeInstanceOf(ApprovalDenied);

    const steered = write();
    await server.decide((await server.pendingGate()).id, { option: 'steer', instructions: 'write b' });
    const error = await steered.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalSteered);
    expect((error as ApprovalSteered).instructions).toBe('write b');

    const inResult = gate.withApproval(async () => 'written', {
      tool: 'write_file',
      args: () => ({ path: 'a' }),
      mode: 'result',
    });
    const answer = inResult();
    await server.decide((await server.pendingGate()).id, { option: 'reject', reason: 'still no' });
    expect(await answer).toMatchObject({ ok: false, outcome: 'denied', reason: 'still no' });
  });
});

describe('runs', () => {
  it('freezes at the first strategic checkpoint and returns the review with its feedback', async () => {
    const run = await gate.createRun({ autonomy: 'partial', title: 'sdk test' });
    const early = await gate
      .checkpoint({ runId: run.id, phase: 1, type: 'strategic' })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(early, 'RUN_HELD')).toBe(true);
    expect((early as { details: object }).details).toMatchObject({ reason: 'intent_required' });
    // Gate 0: the plan is approved before the run checkpoints anything.
    const plan = gate.request({
      runId: run.id,
      event: 'planning_complete',
      operation: 'split the work in two',
    });
    await server.decide((await server.pendingGate('&type=intent_approval')).id, { option: 'approve' });
    expect(await plan).toMatchObject({ outcome: 'approved' });
    const frozen = gate.checkpoint({ runId: run.id, phase: 1, type: 'strategic' });
    const review = await server.pendingGate('&type=phase_review');
    await server.decide(review.id, { option: 'request_changes', feedback: 'split the plan in two' });
    expect(await frozen).toMatchObject({
      freeze: true,
      gateId: review.id,
      outcome: { outcome: 'request_changes', feedback: 'split the plan in two' },
    });
  });

  it('escalates a low confidence report and waits for the answer', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const report = gate.reportConfidence({
      runId: run.id,
      score: 72,
      reasons: ['one test only'],
      wait: true,
    });
    const escalation = await server.pendingGate('&type=confidence_threshold');
    await server.decide(escalation.id, { option: 'approve' });
    expect(await report).toMatchObject({
      escalated: true,
      gateId: escalation.id,
      outcome: { outcome: 'approved' },
    });
  });

  it('delivers a pause and a steer to the interventions iterator', async () => {
    const run = await gate.createRun({});
    const controller = new AbortController();
    const seen: { kind: string; instruction: string | null }[] = [];
    const reading = (async () => {
      for await (const event of gate.interventions(run.id, { signal: controller.signal })) {
        seen.push({ kind: event.kind, instruction: event.instruction });
        if (seen.length === 2) controller.abort();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const dev = server.test.tokens.developer;
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'pause' });
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, {
      kind: 'steer',
      instruction: 'use pnpm',
    });
    await reading;
    expect(seen).toEqual([
      { kind: 'pause', instruction: null },
      { kind: 'steer', instruction: 'use pnpm' },
    ]);
  });

  it('holds a request of a paused run until it resumes', async () => {
    const run = await gate.createRun({});
    const dev = server.test.tokens.developer;
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'pause' });
    let answered = false;
    const pending = gate.request({ runId: run.id, tool: 'read_file', args: { path: 'a' } }).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'resume' });
    expect(await pending).toMatchObject({ outcome: 'approved' });
  });

  it('asks again while the server refuses a paused run, and goes on after resume', async () => {
    await server.close();
    server = await startLiveServer({ pausedRunHoldMs: 20 });
    const refusals: string[] = [];
    gate = new Gatehouse({
      url: server.url,
      token: server.test.tokens.agent,
      retry: {
        initialDelayMs: 20,
        maxDelayMs: 50,
        onRetry: ({ error }) => refusals.push((error as { code: string }).code),
      },
    });
    const run = await gate.createRun({});
    const dev = server.test.tokens.developer;
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'pause' });
    const pending = gate.request({ runId: run.id, tool: 'read_file', args: { path: 'a' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.call(dev, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'resume' });
    expect(await pending).toMatchObject({ outcome: 'approved' });
    expect(refusals.length).toBeGreaterThan(0);
    expect(new Set(refusals)).toEqual(new Set(['RUN_NOT_ACTIVE']));
  });

  it('fails closed with RUN_STOPPED once the run is stopped', async () => {
    const run = await gate.createRun({});
    await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${run.id}/interventions`, {
      kind: 'stop',
    });
    const error = await gate.request({ runId: run.id, ...writeFile }).catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'RUN_STOPPED')).toBe(true);
  });
});
