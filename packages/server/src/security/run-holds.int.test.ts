import { afterEach, describe, expect, it } from 'vitest';
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

describe.each(dialects)('a held run acts on nothing on %s', (dialect) => {
  let session: AgentSession;
  afterEach(async () => {
    await session?.close();
  });

  async function runWith(body: Record<string, unknown> = {}): Promise<string> {
    session = await startAgentSession(dialect, POLICY);
    const started = await session.startRun(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.run.id;
  }

  const write = (runId: string) => session.ask({ runId, tool: 'write_file', args: { path: 'src/a.ts' } });
  const read = (runId: string) => session.ask({ runId, tool: 'read_file', args: { path: 'src/a.ts' } });

  async function openIntent(runId: string): Promise<string> {
    const intent = await session.ask({ runId, event: 'planning_complete', operation: 'implement the plan' });
    expect(intent.body.outcome).toBe('gated');
    return intent.body.gateId;
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

  it('freezes a run at its phase review: no next phase, no requests, no completion until it is decided', async () => {
    const runId = await runWith({ autonomy: 'partial' });
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
    const skipped = await session.checkpoint(runId, 5);
    expect(skipped.status).toBe(409);
    expect(skipped.body.error).toMatchObject({
      code: 'PHASE_OUT_OF_ORDER',
      details: { field: 'phase', expected: 1 },
    });
  });

  it('re-reviews the same strategic phase after changes were requested', async () => {
    const runId = await runWith({ autonomy: 'partial' });
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
