import { type Clock, createGateCatalog, type OpenGateInput, openGate } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import type { Json } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const catalog = createGateCatalog();

describe.each(dialects)('batch decisions over HTTP on %s', (dialect) => {
  let server: ListeningApp<Clock> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(): Promise<ListeningApp<Clock>> {
    server = await startListeningApp({ dialect });
    await useTestPolicy(server.test);
    return server;
  }

  async function ask(app: ListeningApp<Clock>, body: Record<string, unknown>): Promise<string> {
    const response = await app.client.call('POST', '/v1/gates', { token: app.test.tokens.agent, body });
    expect(response.body.outcome).toBe('gated');
    return response.body.gate.id as string;
  }

  /** Gates the server opens from facts (recovery, destructive action) go straight into the store. */
  async function insert(app: ListeningApp<Clock>, id: string, input: OpenGateInput): Promise<string> {
    const gate = openGate(
      { agentId: app.test.ids.agentId, requestedBy: `agent:${app.test.ids.agentId}`, ...input },
      { catalog, id, now: app.test.clock.now() },
    );
    await app.test.store.transaction((tx) => tx.insertGate(gate));
    return id;
  }

  async function batch(
    app: ListeningApp<Clock>,
    gateIds: string[],
    option: string,
  ): Promise<Map<string, Json>> {
    const response = await app.client.call('POST', '/v1/gates/decide-batch', {
      token: app.test.tokens.admin,
      body: { gateIds, option, reason: 'cleared in bulk' },
    });
    expect(response.status).toBe(200);
    return new Map(response.body.results.map((result: Json) => [result.gateId, result]));
  }

  async function statusOf(app: ListeningApp<Clock>, gateId: string): Promise<string> {
    const response = await app.client.call('GET', `/v1/gates/${gateId}`, { token: app.test.tokens.admin });
    return response.body.gate.status as string;
  }

  it('refuses every ineligible gate by name and reason, and still decides the eligible ones', async () => {
    const app = await start();
    const plain = await ask(app, { tool: 'shell', args: { command: 'make lint' } });
    const deploy = await ask(app, { operation: 'deploy to production', gateType: 'deployment_approval' });
    const wipe = await ask(app, {
      tool: 'shell',
      args: { command: 'rm -rf /var/lib/app && psql -c "DROP TABLE users"' },
    });
    const twoPeople = await ask(app, { tool: 'deploy', args: { env: 'staging' } });
    const signed = await ask(app, { tool: 'wire_money', args: { amount: 1 } });
    const testDeletion = await insert(app, 'gate_batch_tests', {
      type: 'destructive_action',
      context: { kind: 'test_deletion', files: ['src/auth.test.ts'] },
    });
    const recovery = await insert(app, 'gate_batch_recovery', {
      type: 'recovery_escalation',
      risk: 'critical',
      context: { severity: 'CRITICAL', recovery_attempts: 3 },
    });

    const all = [plain, deploy, wipe, twoPeople, signed, testDeletion, recovery];
    const results = await batch(app, all, 'approve');
    expect(results.get(plain)).toEqual({ gateId: plain, ok: true, status: 'approved' });
    const refused: [string, string[]][] = [
      [deploy, ['gate_type']],
      [wipe, ['always_gated', 'risk']],
      [twoPeople, ['approvals']],
      [signed, ['signature']],
      [testDeletion, ['gate_type']],
      [recovery, ['gate_type']],
    ];
    for (const [gateId, rules] of refused) {
      const result = results.get(gateId);
      expect(result).toMatchObject({ gateId, ok: false, error: { code: 'BATCH_NOT_ALLOWED' } });
      expect(rules).toContain(result.error.details.rule);
      expect(result.error.message).toContain(gateId);
      expect(result.error.message).toContain(result.error.details.reason);
      expect(await statusOf(app, gateId)).toBe('pending');
    }
  });

  it('refuses a batch reject of an ineligible gate too, so no client can end it in bulk', async () => {
    const app = await start();
    const deploy = await ask(app, { operation: 'deploy to production', gateType: 'deployment_approval' });
    const plain = await ask(app, { tool: 'shell', args: { command: 'make lint' } });
    const results = await batch(app, [deploy, plain], 'reject');
    expect(results.get(deploy)).toMatchObject({
      ok: false,
      error: { code: 'BATCH_NOT_ALLOWED', details: { rule: 'gate_type', gateId: deploy } },
    });
    expect(results.get(plain)).toMatchObject({ ok: true, status: 'rejected' });
    expect(await statusOf(app, deploy)).toBe('pending');
  });
});
