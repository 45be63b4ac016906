import { afterEach, describe, expect, it } from 'vitest';
import { commit } from '../services/commit.js';
import { refreshRunStatus } from '../services/gates/gate-run.js';
import { cancelPendingGates } from '../services/runs/interventions.js';
import { type AgentSession, startAgentSession } from '../testing/agent-session.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const POLICY = `name: holds
defaultAction: gate
rules:
  - id: intent
    priority: 960
    match: { events: [planning_complete] }
    action: { gate: { type: intent_approval, threshold: mandatory } }
    reason: A person approves the plan first.
  - id: writes
    priority: 200
    match: { tools: [write_file] }
    action: allow
    reason: Writes are allowed.
  - id: reads
    priority: 200
    match: { tools: [read_file] }
    action: allow
    reason: Reads are allowed.
`;

const PLANS_ALLOWED = POLICY.replace(
  'action: { gate: { type: intent_approval, threshold: mandatory } }',
  'action: allow',
);

describe.each(dialects)('a held run acts on nothing on %s', (dialect) => {
  let session: AgentSession;
  afterEach(async () => {
    await session?.close();
  });

  async function runWith(body: Record<string, unknown> = {}, policy = POLICY): Promise<string> {
    session = await startAgentSession(dialect, policy);
    const started = await session.startRun(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.run.id;
  }

  /** A run the tech lead starts for the agent at a level looser than the agent's own. */
  async function looserRun(autonomy: string): Promise<string> {
    session = await startAgentSession(dialect, POLICY);
    const { tokens, ids } = session.server.test;
    const started = await session.startRun({ autonomy, agentId: ids.agentId }, tokens.techLead);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.run.id;
  }

  const write = (runId: string) => session.ask({ runId, tool: 'write_file', args: { path: 'src/a.ts' } });
  const read = (runId: string) => session.ask({ runId, tool: 'read_file', args: { path: 'src/a.ts' } });

  async function openIntent(runId: string, body: Record<string, unknown> = {}): Promise<string> {
    const intent = await session.ask({
      runId,
      event: 'planning_complete',
      operation: 'implement the plan',
      ...body,
    });
    expect(intent.body.outcome, JSON.stringify(intent.body)).toBe('gated');
    expect(intent.body.gate.type).toBe('intent_approval');
    return intent.body.gateId;
  }

  async function approvePlan(runId: string): Promise<void> {
    const gateId = await openIntent(runId);
    expect((await session.decide(gateId, { option: 'approve' })).status).toBe(200);
  }

  function expectHeld(
    result: { status: number; body: { error?: { code: string; details: object } } },
    reason: string,
  ) {
    expect(result.status, JSON.stringify(result.body)).toBe(409);
    expect(result.body.error?.code).toBe('RUN_HELD');
    expect(result.body.error?.details).toMatchObject({ reason });
  }

  it('holds every acting call while the intent gate is pending; reads go on', async () => {
    const runId = await runWith();
    const gateId = await openIntent(runId);
    expectHeld(await write(runId), 'intent_pending');
    expect((await write(runId)).body.error.details.gateId).toBe(gateId);
    expectHeld(await session.report({ runId, score: 20 }), 'intent_pending');
    expectHeld(await session.checkpoint(runId, 1), 'intent_pending');
    expectHeld(await session.runAction(runId, 'complete'), 'intent_pending');
    expect((await read(runId)).body.outcome).toBe('allowed');
    await session.decide(gateId, { option: 'approve' });
    expect((await write(runId)).body.outcome).toBe('allowed');
  });

  it('sends the run back to planning when its intent is rejected, until a new plan is approved', async () => {
    const runId = await runWith();
    const first = await openIntent(runId);
    expect((await session.decide(first, { option: 'reject', reason: 'wrong scope' })).status).toBe(200);
    expectHeld(await write(runId), 'intent_not_approved');
    expectHeld(await session.checkpoint(runId, 1), 'intent_not_approved');
    const second = await openIntent(runId);
    expectHeld(await write(runId), 'intent_pending');
    await session.decide(second, { option: 'approve' });
    expect((await write(runId)).body.outcome).toBe('allowed');
  });

  it.each(['partial', 'guided', 'dependent'])(
    'holds implementation of a %s run until its plan is approved, though it never asked for Gate 0',
    async (autonomy) => {
      const runId = await runWith({ autonomy });
      expectHeld(await write(runId), 'intent_required');
      const held = await write(runId);
      expect(held.body.error.message).toContain('intent approval');
      expect(held.body.error.details.gateId).toBeNull();
      expectHeld(await session.checkpoint(runId, 1), 'intent_required');
      expectHeld(await session.runAction(runId, 'complete'), 'intent_required');
      expect((await read(runId)).body.outcome).toBe('allowed');
      expect((await session.report({ runId, score: 95 })).status).toBe(200);
      const gateId = await openIntent(runId);
      expectHeld(await write(runId), 'intent_pending');
      await session.decide(gateId, { option: 'approve' });
      expect((await write(runId)).body.outcome).toBe('allowed');
      expect((await session.checkpoint(runId, 1)).status).toBe(200);
    },
  );

  it('lets a run ask a person while it plans, and holds the question while its plan waits', async () => {
    const runId = await runWith();
    const question = { runId, event: 'question', operation: 'Which database should the cache use?' };
    const asked = await session.ask(question);
    expect(asked.body.outcome, JSON.stringify(asked.body)).toBe('gated');
    expect(asked.body.gate.type).toBe('question');
    await openIntent(runId);
    expectHeld(await session.ask({ ...question, operation: 'And which region?' }), 'intent_pending');
  });

  it.each(['full', 'review'])('lets a %s run act without a plan', async (autonomy) => {
    const runId = await looserRun(autonomy);
    expect((await write(runId)).body.outcome).toBe('allowed');
    expect((await session.checkpoint(runId, 1)).status).toBe(200);
  });

  it('opens the intent gate for a plan at a freezing level even when the policy would allow the plan', async () => {
    const runId = await runWith({ autonomy: 'partial' }, PLANS_ALLOWED);
    const gateId = await openIntent(runId);
    const gate = await session.gate(gateId);
    expect(gate).toMatchObject({ type: 'intent_approval', threshold: 'mandatory', status: 'pending' });
    expectHeld(await write(runId), 'intent_pending');
    await session.decide(gateId, { option: 'approve' });
    expect((await write(runId)).body.outcome).toBe('allowed');
  });

  it('keeps the run in planning after its intent was steered; only an approved plan releases it', async () => {
    const runId = await runWith();
    const first = await openIntent(runId);
    const steered = await session.decide(first, {
      option: 'steer',
      instructions: 'Cover the error paths too',
    });
    expect(steered.status, JSON.stringify(steered.body)).toBe(200);
    expect((await session.gate(first)).status).toBe('steered');
    expectHeld(await write(runId), 'intent_not_approved');
    expectHeld(await session.checkpoint(runId, 1), 'intent_not_approved');
    expectHeld(await session.runAction(runId, 'complete'), 'intent_not_approved');
    const second = await openIntent(runId);
    await session.decide(second, { option: 'approve' });
    expect((await write(runId)).body.outcome).toBe('allowed');
  });

  it('keeps the run in planning after its intent gate expired unanswered', async () => {
    const runId = await runWith();
    const gateId = await openIntent(runId, { timeoutSeconds: 60 });
    const { test } = session.server;
    test.clock.advance(3600 * 1000);
    await test.services.timeouts.sweepOnce();
    expect((await session.gate(gateId)).status).toBe('expired');
    expectHeld(await write(runId), 'intent_not_approved');
    expectHeld(await session.checkpoint(runId, 1), 'intent_not_approved');
    expectHeld(await session.runAction(runId, 'complete'), 'intent_not_approved');
  });

  it('keeps the run in planning after its intent gate was cancelled', async () => {
    const runId = await runWith();
    const gateId = await openIntent(runId);
    const { test } = session.server;
    await commit(test.ctx, async (tools) => {
      await cancelPendingGates(tools, runId, `user:${test.ids.adminId}`, 'cancelled for the test');
      await refreshRunStatus(tools, runId);
    });
    expect((await session.gate(gateId)).status).toBe('cancelled');
    expectHeld(await write(runId), 'intent_not_approved');
    expectHeld(await session.checkpoint(runId, 1), 'intent_not_approved');
    expectHeld(await session.runAction(runId, 'complete'), 'intent_not_approved');
  });

  it('freezes a run at its phase review: no next phase, no requests, no completion until it is decided', async () => {
    const runId = await runWith({ autonomy: 'partial' });
    await approvePlan(runId);
    const review = await session.checkpoint(runId, 1);
    expect(review.body.freeze).toBe(true);
    expectHeld(await session.checkpoint(runId, 2), 'phase_review');
    expectHeld(await write(runId), 'phase_review');
    expectHeld(await session.runAction(runId, 'complete'), 'phase_review');
    expect((await session.checkpoint(runId, 1)).body.gate.id).toBe(review.body.gate.id);
    await session.decide(review.body.gate.id, { option: 'approve' });
    expect((await session.checkpoint(runId, 2)).status).toBe(200);
  });

  it('advances phases one at a time: a partial run cannot start at phase 5 and skip the plan review', async () => {
    const runId = await runWith({ autonomy: 'partial' });
    await approvePlan(runId);
    const skipped = await session.checkpoint(runId, 5);
    expect(skipped.status).toBe(409);
    expect(skipped.body.error).toMatchObject({
      code: 'PHASE_OUT_OF_ORDER',
      details: { field: 'phase', expected: 1 },
    });
  });

  it('re-reviews the same strategic phase after changes were requested', async () => {
    const runId = await runWith({ autonomy: 'partial' });
    await approvePlan(runId);
    const review = await session.checkpoint(runId, 1);
    await session.decide(review.body.gate.id, { option: 'request_changes', feedback: 'Split the plan' });
    expect((await session.checkpoint(runId, 2)).body.error.code).toBe('PHASE_OUT_OF_ORDER');
    const again = await session.checkpoint(runId, 1);
    expect(again.body.freeze).toBe(true);
    expect(again.body.gate.id).not.toBe(review.body.gate.id);
  });

  it('holds confidence reports and checkpoints of a paused run, opening no gate', async () => {
    const runId = await runWith();
    expect((await session.intervene(runId, 'pause')).status).toBe(200);
    expectHeld(await session.report({ runId, score: 5 }), 'paused');
    expectHeld(await session.checkpoint(runId, 1), 'paused');
    expectHeld(await session.runAction(runId, 'complete'), 'paused');
    const gates = await session.server.client.call('GET', `/v1/gates?runId=${runId}`, {
      token: session.server.test.tokens.admin,
    });
    expect(gates.body.items).toEqual([]);
  });
});
