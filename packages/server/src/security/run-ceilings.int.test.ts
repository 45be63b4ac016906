import { afterEach, describe, expect, it } from 'vitest';
import { type AgentSession, startAgentSession } from '../testing/agent-session.js';
import { approveTestPlan, insertTestAgent } from '../testing/runs.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('runs never override the people who set up the agent on %s', (dialect) => {
  let session: AgentSession;
  afterEach(async () => {
    await session?.close();
  });

  /** Starts the server with an agent people registered as `dependent`; returns its token. */
  async function dependentAgent(): Promise<string> {
    session = await startAgentSession(dialect);
    const { test } = session.server;
    const agent = {
      id: 'agent_strict',
      name: 'strict',
      profile: null,
      autonomy: 'dependent' as const,
      createdAt: 0,
    };
    await test.store.transaction((tx) => tx.insertAgent(agent));
    return (await test.services.agents.issueToken(test.ids.adminId, agent.id)).token;
  }

  it('refuses an agent’s own run looser than its autonomy, naming the field', async () => {
    const token = await dependentAgent();
    const refused = await session.startRun({ autonomy: 'full' }, token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'ABOVE_CEILING',
      details: { field: 'autonomy', ceiling: 'dependent' },
    });
    const started = await session.startRun({}, token);
    expect(started.body.run.autonomy).toBe('dependent');
    await approveTestPlan(session.server.test, started.body.run.id, token);
    const frozen = await session.server.client.call('POST', `/v1/runs/${started.body.run.id}/checkpoint`, {
      token,
      body: { phase: 1, type: 'tactical' },
    });
    expect(frozen.body.freeze).toBe(true);
  });

  it.each([
    ['review', 'full'],
    ['partial', 'review'],
    ['guided', 'partial'],
    ['dependent', 'guided'],
  ] as const)('refuses an agent at %s its own run one step looser, at %s', async (ceiling, looser) => {
    session = await startAgentSession(dialect);
    const { test } = session.server;
    const agentId = `agent_${ceiling}`;
    await insertTestAgent(test, { id: agentId, autonomy: ceiling });
    const { token } = await test.services.agents.issueToken(test.ids.adminId, agentId);
    const refused = await session.startRun({ autonomy: looser }, token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'ABOVE_CEILING',
      details: { field: 'autonomy', ceiling, requested: looser },
    });
    const runs = await test.store.read((tx) => tx.listRuns({ agentId, limit: 10 }));
    expect(runs.items).toEqual([]);
    const same = await session.startRun({ autonomy: ceiling }, token);
    expect(same.status).toBe(201);
  });

  it('refuses a confidence threshold of 0 from the agent; a report of 0.01 still escalates', async () => {
    session = await startAgentSession(dialect);
    const refused = await session.startRun({ confidenceThreshold: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'ABOVE_CEILING',
      details: { field: 'confidenceThreshold' },
    });
    const run = (await session.startRun({ confidenceThreshold: 0.85 })).body.run;
    const report = await session.report({ runId: run.id, confidence: 0.01 });
    expect(report.body).toMatchObject({ escalated: true });
  });

  it('finishes a dependent run only after its final review', async () => {
    const token = await dependentAgent();
    const run = (await session.startRun({ autonomy: 'full', confidenceThreshold: 0 }, token)).body;
    expect(run.error?.code).toBe('ABOVE_CEILING');
    const started = (await session.startRun({}, token)).body.run;
    await approveTestPlan(session.server.test, started.id, token);
    const done = await session.server.client.call('POST', `/v1/runs/${started.id}/complete`, {
      token,
      body: {},
    });
    expect(done.body.run.status).toBe('waiting');
    expect(done.body.gate).toMatchObject({ type: 'phase_review' });
  });

  it('lets only an admin loosen the agent itself, audited, after which its own runs may go that far', async () => {
    const token = await dependentAgent();
    const { tokens } = session.server.test;
    const patch = (who: string, body: unknown) =>
      session.server.client.call('PATCH', '/v1/agents/agent_strict', { token: who, body });
    expect((await patch(token, { autonomy: 'full' })).status).toBe(403);
    expect((await patch(tokens.developer, { autonomy: 'full' })).status).toBe(403);
    const bad = await patch(tokens.admin, { autonomy: 'yolo' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('autonomy');
    expect((await session.startRun({ autonomy: 'full' }, token)).status).toBe(403);
    const changed = await patch(tokens.admin, { autonomy: 'full' });
    expect(changed.body.agent).toMatchObject({ id: 'agent_strict', autonomy: 'full' });
    expect((await session.startRun({ autonomy: 'full' }, token)).status).toBe(201);
    const audit = await session.server.test.services.audit.query({ subject: 'agent_strict' });
    expect(audit.items.map((event) => event.kind)).toContain('agent.autonomy_changed');
  });

  it('lets a tech lead start a run looser than the agent’s settings, and not a developer', async () => {
    session = await startAgentSession(dialect);
    const { tokens } = session.server.test;
    await insertTestAgent(session.server.test, { id: 'agent_careful', autonomy: 'guided' });
    const developer = await session.startRun(
      { agentId: 'agent_careful', autonomy: 'full' },
      tokens.developer,
    );
    expect(developer.body.error?.code).toBe('ABOVE_CEILING');
    const lead = await session.startRun({ agentId: 'agent_careful', autonomy: 'full' }, tokens.techLead);
    expect(lead.status).toBe(201);
    expect(lead.body.run.autonomy).toBe('full');
  });
});
