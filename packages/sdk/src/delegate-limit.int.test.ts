import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
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

describe('gate-specific answers', () => {
  it('tells the agent which agent a person delegated the task to', async () => {
    const pending = gate.request({
      operation: 'Fix the flaky checkout test',
      gateType: 'recovery_escalation',
      context: { severity: 'CRITICAL' },
    });
    const open = await server.pendingGate();
    const delegateTo = server.test.ids.otherAgentId;
    expect((await server.decide(open.id, { option: 'delegate', delegateTo })).status).toBe(200);
    expect(await pending).toMatchObject({ outcome: 'delegate', delegateTo, newLimit: null });
  });

  it('tells the agent the new limit of an expanded constraint', async () => {
    const pending = gate.request({
      operation: 'Render the report',
      gateType: 'constraint_exception',
      context: { constraint: 'at most 100 pages', currentLimit: 100 },
    });
    const open = await server.pendingGate();
    expect((await server.decide(open.id, { option: 'expand_constraint', newLimit: 140 })).status).toBe(200);
    expect(await pending).toMatchObject({ outcome: 'expand_constraint', newLimit: 140, delegateTo: null });
  });
});
