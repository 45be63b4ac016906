import { startServer } from 'gatehouse-hitl-server';
import { afterEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { type LiveServer, startLiveServer } from './testing/live-server.js';

let server: LiveServer | null = null;
let restarted: { close(): Promise<void> } | null = null;

afterEach(async () => {
  await restarted?.close();
  await server?.close();
  restarted = null;
  server = null;
});

describe('waiting through a server restart', () => {
  it('keeps waiting on the same gate and never opens a second one', async () => {
    server = await startLiveServer();
    const retries: number[] = [];
    const gate = new Gatehouse({
      url: server.url,
      token: server.test.tokens.agent,
      retry: { initialDelayMs: 20, maxDelayMs: 200, onRetry: ({ attempt }) => retries.push(attempt) },
    });
    const pending = gate.request({ tool: 'shell_execute', args: { command: 'npm test' } });
    const open = await server.pendingGate();

    // Stop the server (app and database) while the agent waits; the SQLite file stays.
    await server.test.app.close();
    await server.test.store.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    restarted = await startServer({
      config: { ...server.test.config, port: server.port, logLevel: 'silent' },
      handleSignals: false,
      print: () => {},
    });

    const dev = server.test.tokens.developer;
    const decided = await server.call(dev, 'POST', `/v1/gates/${open.id}/decide`, { option: 'approve' });
    expect(decided.status).toBe(200);
    expect(await pending).toMatchObject({ outcome: 'approved', gateId: open.id });
    expect(retries.length).toBeGreaterThan(0);
    const { body } = await server.call(dev, 'GET', '/v1/gates');
    expect(body.items).toHaveLength(1);
  });

  it('sends a request again with the same key after the server went away, getting the same gate', async () => {
    server = await startLiveServer();
    const port = server.port;
    await server.test.app.close();
    const gate = new Gatehouse({
      url: server.url,
      token: server.test.tokens.agent,
      retry: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    const pending = gate.request({
      tool: 'shell_execute',
      args: { command: 'make' },
      idempotencyKey: 'agent-step-7',
    });
    await server.test.store.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    restarted = await startServer({
      config: { ...server.test.config, port, logLevel: 'silent' },
      handleSignals: false,
      print: () => {},
    });
    const open = await server.pendingGate();
    // A second agent process with the same key (a crash and restart of the agent) gets the same gate.
    const again = gate.request({
      tool: 'shell_execute',
      args: { command: 'make' },
      idempotencyKey: 'agent-step-7',
    });
    await server.decide(open.id, { option: 'approve' });
    expect((await pending).gateId).toBe(open.id);
    expect((await again).gateId).toBe(open.id);
    const { body } = await server.call(server.test.tokens.developer, 'GET', '/v1/gates');
    expect(body.items).toHaveLength(1);
  });
});
