import { afterEach, describe, expect, it } from 'vitest';
import { type AgentSession, startAgentSession } from '../testing/agent-session.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('delegate and expand-constraint decisions on %s', (dialect) => {
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

  const recoveryGate = () => gateOf('recovery_escalation', { severity: 'CRITICAL' });

  async function decidedEvent(gateId: string) {
    const events = await session.server.test.services.audit.query({ subject: gateId });
    return events.items.find((event) => event.kind === 'gate.decided');
  }

  async function expectRefused(gateId: string, body: Record<string, unknown>, field: string) {
    const refused = await session.decide(gateId, body);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(refused.body.error.details)).toContain(field);
    expect(refused.body.error.message).toContain(field);
    expect((await session.gate(gateId)).status).toBe('pending');
  }

  it('hands a recovery to another existing agent: recorded on the decision, audited and shown to the agent', async () => {
    const gateId = await recoveryGate();
    const gate = await session.gate(gateId);
    expect(gate.options.find((option: { id: string }) => option.id === 'delegate').requires).toEqual([
      'delegateTo',
    ]);
    const { otherAgentId } = session.server.test.ids;
    const decided = await session.decide(gateId, { option: 'delegate', delegateTo: otherAgentId });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.decision).toMatchObject({ option: 'delegate', delegateTo: otherAgentId });
    expect((await decidedEvent(gateId))?.data).toMatchObject({
      option: 'delegate',
      delegateTo: otherAgentId,
    });
    const seen = await session.server.client.call('GET', `/v1/gates/${gateId}`, {
      token: session.server.test.tokens.agent,
    });
    expect(seen.body.gate.decision).toMatchObject({ option: 'delegate', delegateTo: otherAgentId });
  });

  it('refuses a delegate without an agent, to an agent that does not exist, or to the agent that asked', async () => {
    const gateId = await recoveryGate();
    await expectRefused(gateId, { option: 'delegate' }, 'delegateTo');
    await expectRefused(gateId, { option: 'delegate', delegateTo: 'agent_nobody' }, 'delegateTo');
    await expectRefused(
      gateId,
      { option: 'delegate', delegateTo: session.server.test.ids.agentId },
      'delegateTo',
    );
    await expectRefused(
      gateId,
      { option: 'retry', delegateTo: session.server.test.ids.otherAgentId },
      'delegateTo',
    );
    expect(await decidedEvent(gateId)).toBeUndefined();
  });

  it('expands a constraint to a new limit above the current one, recorded and audited', async () => {
    const gateId = await gateOf('constraint_exception', {
      constraint: 'budget of 100 USD',
      currentLimit: 100,
    });
    const decided = await session.decide(gateId, { option: 'expand_constraint', newLimit: 250 });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.decision).toMatchObject({ option: 'expand_constraint', newLimit: 250 });
    expect((await decidedEvent(gateId))?.data).toMatchObject({ option: 'expand_constraint', newLimit: 250 });
  });

  it('refuses an expansion without a limit, at or below the current one, out of bounds or not a number', async () => {
    const gateId = await gateOf('constraint_exception', { currentLimit: 100 });
    await expectRefused(gateId, { option: 'expand_constraint' }, 'newLimit');
    await expectRefused(gateId, { option: 'expand_constraint', newLimit: 100 }, 'newLimit');
    await expectRefused(gateId, { option: 'expand_constraint', newLimit: -5 }, 'newLimit');
    await expectRefused(gateId, { option: 'expand_constraint', newLimit: 1e13 }, 'newLimit');
    await expectRefused(gateId, { option: 'expand_constraint', newLimit: '250' }, 'newLimit');
    await expectRefused(gateId, { option: 'reduce_scope', newLimit: 250 }, 'newLimit');
    expect(await decidedEvent(gateId)).toBeUndefined();
  });
});
