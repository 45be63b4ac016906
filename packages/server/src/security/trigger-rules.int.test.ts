import { afterEach, describe, expect, it } from 'vitest';
import { type AgentSession, startAgentSession } from '../testing/agent-session.js';
import { approveTestPlan } from '../testing/runs.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('seed 001’s trigger rules run on the server on %s', (dialect) => {
  let session: AgentSession;
  let runId: string;
  afterEach(async () => {
    await session?.close();
  });

  async function start() {
    session = await startAgentSession(dialect);
    runId = (await session.startRun()).body.run.id;
    await approveTestPlan(session.server.test, runId);
  }

  const recovery = (context: Record<string, unknown>) =>
    session.ask({ runId, event: 'recovery', operation: 'retry the failing build', context });

  it('opens no gate for a first attempt at confidence 0.9 and LOW severity, and says why', async () => {
    await start();
    const answer = await recovery({ errorSignature: 'E1', confidence: 0.9, severity: 'LOW' });
    expect(answer.body.outcome).toBe('allowed');
    expect(answer.body.reason).toMatch(/no gate needed: recovery attempt 1/);
  });

  it('counts attempts itself: the third attempt escalates whatever the agent says it counted', async () => {
    await start();
    const facts = { confidence: 0.9, severity: 'LOW', recoveryAttempts: 0 };
    expect((await recovery({ ...facts, errorSignature: 'E1' })).body.outcome).toBe('allowed');
    expect((await recovery({ ...facts, errorSignature: 'E2' })).body.outcome).toBe('allowed');
    const third = await recovery({ ...facts, errorSignature: 'E3' });
    expect(third.body.outcome).toBe('gated');
    expect(third.body.gate).toMatchObject({
      type: 'recovery_escalation',
      context: { recoveryAttempts: 3, triggerRules: ['max_recovery_attempts'] },
    });
  });

  it('resets the count with a retry decision', async () => {
    await start();
    const facts = { confidence: 0.9, severity: 'LOW' };
    for (const signature of ['E1', 'E2']) await recovery({ ...facts, errorSignature: signature });
    const gateId = (await recovery({ ...facts, errorSignature: 'E3' })).body.gateId;
    expect((await session.decide(gateId, { option: 'retry' })).status).toBe(200);
    expect((await recovery({ ...facts, errorSignature: 'E4' })).body.outcome).toBe('allowed');
  });

  it('spots a loop (the same error twice) and a flaky failure (pass and fail alternating)', async () => {
    await start();
    const facts = { confidence: 0.9, severity: 'LOW', infiniteLoopDetected: false };
    await recovery({ ...facts, errorSignature: 'E1' });
    const looped = await recovery({ ...facts, errorSignature: 'E1' });
    expect(looped.body.gate.context.triggerRules).toContain('infinite_loop');
    await session.decide(looped.body.gateId, { option: 'retry' });
    const outcomes = ['fail', 'pass', 'fail'];
    const answers = [];
    for (const [i, outcome] of outcomes.entries())
      answers.push(await recovery({ ...facts, errorSignature: `F${i}`, outcome }));
    expect(answers[2]?.body.gate.context.triggerRules).toContain('non_deterministic_failure');
  });

  it('escalates a CRITICAL first attempt', async () => {
    await start();
    const answer = await recovery({ errorSignature: 'E1', confidence: 0.9, severity: 'CRITICAL' });
    expect(answer.body.gate.context.triggerRules).toEqual(['critical_severity']);
  });

  it('lets a test refactoring that meets the auto-approve conditions through, and gates a plain test deletion', async () => {
    await start();
    const refactor = await session.ask({
      runId,
      event: 'destructive_action',
      operation: 'replace the login tests',
      context: {
        actionType: 'test_deletion',
        testsRemoved: 3,
        replacementTests: 4,
        coverageMaintained: true,
      },
    });
    expect(refactor.body.outcome).toBe('allowed');
    expect(refactor.body.reason).toMatch(/legitimate_test_refactoring/);
    const deletion = await session.ask({
      runId,
      event: 'destructive_action',
      operation: 'delete the login tests',
      context: { actionType: 'test_deletion', testsRemoved: 3 },
    });
    expect(deletion.body.outcome).toBe('gated');
  });

  it('opens the false-positive gate only below 0.7 detection confidence or on a report', async () => {
    await start();
    const sure = await session.ask({
      runId,
      event: 'false_positive',
      operation: 'check',
      context: { detectionConfidence: 0.9 },
    });
    expect(sure.body.outcome).toBe('allowed');
    const unsure = await session.ask({
      runId,
      event: 'false_positive',
      operation: 'check',
      context: { detectionConfidence: 0.5 },
    });
    expect(unsure.body.outcome).toBe('gated');
  });
});
