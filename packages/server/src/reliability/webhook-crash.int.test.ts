import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from 'gatehouse-hitl-sdk';
import { LEASE_EXPIRED } from 'gatehouse-hitl-store';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient, type Json, sleep } from '../testing/http-client.js';
import { type ServerProcess, startServerProcess } from '../testing/server-process.js';
import { startWebhookReceiver } from '../testing/webhook-receiver.js';

const LEASE_MS = 4_000;

describe('kill -9 of the node delivering a webhook, on Postgres', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(dataDir: string, env: Record<string, string>, expectLink: boolean) {
    const server: ServerProcess = await startServerProcess({ dataDir, env, expectLink });
    const api = createHttpClient(server.url, { maxSockets: 4 });
    cleanup.push(
      () => server.kill(),
      () => api.close(),
    );
    return { server, api };
  }

  async function deliveries(api: HttpClient, admin: string, webhookId: string): Promise<Json[]> {
    const { status, body } = await api.call('GET', `/v1/webhooks/${webhookId}/deliveries`, { token: admin });
    expect(status).toBe(200);
    return body.items;
  }

  it('loses no event: the next node redelivers it once the dead node’s claim expires, and it is acknowledged once', async () => {
    const pg = await startTestPostgres();
    cleanup.push(() => pg.stop());
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-webhook-crash-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The first request is held open until its node dies; every later one is acknowledged.
    const hook = await startWebhookReceiver((_request, index) => (index === 0 ? 'hold' : { status: 200 }));
    cleanup.push(() => hook.close());
    const env = {
      GATEHOUSE_DATABASE_URL: pg.connectionString,
      GATEHOUSE_DATABASE_SCHEMA: pg.schema,
      GATEHOUSE_WEBHOOK_POLL_MS: '100',
      GATEHOUSE_WEBHOOK_TIMEOUT_MS: '3000',
      GATEHOUSE_WEBHOOK_LEASE_MS: String(LEASE_MS),
      GATEHOUSE_WEBHOOK_BACKOFF_MS: '50',
    };

    const first = await start(dataDir, env, true);
    const link = await first.api.call('POST', '/v1/auth/link', { body: { token: first.server.loginToken } });
    const admin: string = link.body.token;
    const agent = await first.api.call('POST', '/v1/agents', { token: admin, body: { name: 'builder' } });
    const created = await first.api.call('POST', '/v1/webhooks', {
      token: admin,
      body: { url: hook.url, events: ['gate.opened'] },
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body;
    const gate = await first.api.call('POST', '/v1/gates', {
      token: agent.body.token,
      headers: { 'idempotency-key': 'crash-gate' },
      body: { tool: 'shell', args: { command: 'rm -rf build' } },
    });
    expect(gate.body.outcome).toBe('gated');

    const [held] = await hook.waitFor(1);
    await first.server.kill();

    const second = await start(dataDir, env, false);
    const [, redelivered] = await hook.waitFor(2, 30_000);
    if (held === undefined || redelivered === undefined) throw new Error('missing requests');
    expect(redelivered.headers['gatehouse-event-id']).toBe(held.headers['gatehouse-event-id']);
    expect(redelivered.body).toBe(held.body);
    expect(JSON.parse(redelivered.body)).toMatchObject({ type: 'gate.opened', subject: gate.body.gateId });
    const signature = redelivered.headers['gatehouse-signature'] as string;
    expect(await verifyWebhookSignature({ body: redelivered.body, signature, secret })).toMatchObject({
      ok: true,
    });
    // Nobody took the delivery from the dead node before its claim ran out.
    expect(redelivered.at - held.at).toBeGreaterThanOrEqual(LEASE_MS - 1_000);

    let items: Json[] = [];
    for (let i = 0; i < 100; i++) {
      items = await deliveries(second.api, admin, webhook.id);
      if (items[0]?.status === 'succeeded') break;
      await sleep(100);
    }
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    const detail = await second.api.call('GET', `/v1/webhooks/deliveries/${items[0].id}`, { token: admin });
    expect(detail.body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: null, error: LEASE_EXPIRED }),
      expect.objectContaining({ attempt: 2, statusCode: 200 }),
    ]);
    await sleep(500);
    expect(hook.received.filter((request) => request.status !== null)).toHaveLength(1);
    expect(hook.received).toHaveLength(2);
  }, 90_000);
});
