import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGateway, useNotesPolicy } from '../testing/gateway/gateway-harness.js';
import { type LiveServer, reviewRun, startLiveServer } from '../testing/harness.js';

describe('the MCP gateway over stdio, when the client goes away', () => {
  let server: LiveServer;
  let runId: string;
  let gateway: GatewayUnderTest | undefined;

  beforeAll(async () => {
    server = await startLiveServer();
    runId = await reviewRun(server, 'mcp gateway stdio close');
    await useNotesPolicy(server, 'gate');
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await server?.close();
  });

  it('withdraws the gate of a call still waiting when the client closes the connection, and exits quietly', async () => {
    gateway = await startGateway('stdio proxy, stdio upstream', server, runId);
    const running = gateway;
    const call = running.client.callTool(
      { name: 'notes__write_note', arguments: { title: 'late', body: 'never' } },
      undefined,
      { timeout: 60_000 },
    );
    call.catch(() => {});
    const gate = await server.pendingGate(`&runId=${runId}`);
    await running.close();
    gateway = undefined;

    let view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    for (let i = 0; i < 100 && view.body.gate.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    }
    expect(view.body.gate).toMatchObject({
      status: 'cancelled',
      decision: { decidedBy: `agent:${server.test.ids.agentId}` },
    });
    expect(view.body.gate.decision.reason).toContain('disconnected');
    expect((await server.decide(gate.id, { option: 'approve' })).status).toBe(409);
    expect(running.stderr()).not.toMatch(/RangeError|Maximum call stack/);
  });
});
