import { afterEach, describe, expect, it } from 'vitest';
import { type AgentSession, startAgentSession } from '../testing/agent-session.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('steer and reject as seed 000 says, on %s', (dialect) => {
  let session: AgentSession;
  afterEach(async () => {
    await session?.close();
  });

  async function gateOf(type: string, context: Record<string, unknown> = {}): Promise<string> {
    session = await startAgentSession(dialect);
    const asked = await session.ask({ operation: `something needing a ${type}`, gateType: type, context });
    expect(asked.body.outcome, JSON.stringify(asked.body)).toBe('gated');
    return asked.body.gateId;
  }

  async function phaseReview(): Promise<string> {
    session = await startAgentSession(dialect);
    const run = (await session.startRun({ autonomy: 'partial' })).body.run;
    const plan = await session.ask({ runId: run.id, event: 'planning_complete', operation: 'the plan' });
    expect((await session.decide(plan.body.gateId, { option: 'approve' })).status).toBe(200);
    return (await session.checkpoint(run.id, 1)).body.gate.id;
  }

  it('never approves a phase review that is steered: it requests changes with the instructions', async () => {
    const gateId = await phaseReview();
    const steered = await session.decide(gateId, { option: 'steer', instructions: 'redo the plan' });
    expect(steered.status).toBe(200);
    expect(steered.body.gate.status).not.toBe('approved');
    expect(steered.body.decision).toMatchObject({ option: 'request_changes', feedback: 'redo the plan' });
  });

  it('refuses to turn a steer on a CRITICAL recovery gate into an override unless the person confirms it', async () => {
    const gateId = await gateOf('recovery_escalation', { severity: 'CRITICAL', confidence: 0.9 });
    const silent = await session.decide(gateId, { option: 'steer', instructions: 'try the other driver' });
    expect(silent.status).toBe(400);
    expect(silent.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'confirmApproval' },
    });
    expect((await session.gate(gateId)).status).toBe('pending');
    const confirmed = await session.decide(gateId, {
      option: 'steer',
      instructions: 'try the other driver',
      confirmApproval: true,
    });
    expect(confirmed.body.decision).toMatchObject({ option: 'approve', feedback: 'try the other driver' });
  });

  it.each([
    ['intent_approval', 'reject_rollback'],
    ['confidence_threshold', 'reject_rollback'],
    ['constraint_exception', 'abort'],
  ])('accepts a plain reject on a %s gate as %s', async (type, option) => {
    const gateId = await gateOf(type);
    const rejected = await session.decide(gateId, { option: 'reject', reason: 'not this way' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.decision.option).toBe(option);
  });

  it.each(['../secrets.md', '..\\secrets.md', 'docs\\..\\..\\.env', 'docs/..\\..\\.env'])(
    'refuses a steer whose affected artifact %j leaves the workspace, writing nothing',
    async (path) => {
      const gateId = await gateOf('intent_approval');
      const steered = await session.decide(gateId, {
        option: 'steer',
        instructions: 'update the design',
        affectedArtifacts: ['docs/design.md', path],
      });
      expect(steered.status).toBe(400);
      expect(steered.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'affectedArtifacts[1]' },
      });
      expect((await session.gate(gateId)).status).toBe('pending');
    },
  );

  it('accepts a steer on a constraint exception as reducing the scope with the instructions', async () => {
    const gateId = await gateOf('constraint_exception');
    const steered = await session.decide(gateId, {
      option: 'steer',
      instructions: 'drop the export feature',
    });
    expect(steered.status).toBe(200);
    expect(steered.body.decision).toMatchObject({
      option: 'reduce_scope',
      feedback: 'drop the export feature',
    });
  });
});
