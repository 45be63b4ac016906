import { WEBHOOK_EVENT_TYPES } from 'gatehouse-hitl-protocol';
import { verifyWebhookSignature } from 'gatehouse-hitl-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config.js';
import { decideTestGate, openTestGate } from '../testing/gates.js';
import type { Json } from '../testing/http-client.js';
import { createRunViaApi, postIntervention } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { type ReceiverReply, refusingUrl, startWebhookReceiver } from '../testing/webhook-receiver.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

/** Fast polls and tiny backoff so retries and the dead letter happen within a test. */
const FAST: Partial<ServerConfig> = {
  webhookPollIntervalMs: 50,
  webhookBackoffBaseMs: 20,
  webhookBackoffMaxMs: 100,
  webhookTimeoutMs: 2_000,
  webhookLeaseMs: 5_000,
  webhookMaxAttempts: 3,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('webhook delivery on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(config: Partial<ServerConfig> = {}) {
    test = await createTestApp({ dialect, config: { ...FAST, ...config } });
    cleanup.push(() => test.close());
  }

  async function receiver(reply?: (request: { body: string }, index: number) => ReceiverReply) {
    const started = await startWebhookReceiver(reply);
    cleanup.push(() => started.close());
    return started;
  }

  async function api(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) {
    const response = await test.app.inject({
      method,
      url,
      headers: bearer(test.tokens.admin),
      ...(payload === undefined ? {} : { payload }),
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as Json;
  }

  async function register(url: string, events: string[] = ['gate.opened']) {
    return (await api('POST', '/v1/webhooks', { url, events })) as {
      webhook: { id: string };
      secret: string;
    };
  }

  /** Polls the deliveries of a webhook until `done` holds for them. */
  async function deliveriesUntil(webhookId: string, done: (items: Json[]) => boolean, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { items } = await api('GET', `/v1/webhooks/${webhookId}/deliveries`);
      if (done(items)) return items as Json[];
      if (Date.now() > deadline) throw new Error(`deliveries never got there: ${JSON.stringify(items)}`);
      await sleep(25);
    }
  }

  const openGate = (command = 'rm -rf build') => openTestGate(test, { tool: 'shell', args: { command } });

  it('signs each delivery so the sdk helper verifies it, and names the event in headers and body', async () => {
    await start();
    const hook = await receiver();
    const { webhook, secret } = await register(hook.url);
    const gateId = await openGate();
    const [request] = await hook.waitFor(1);
    if (request === undefined) throw new Error('no request');

    const verified = await verifyWebhookSignature({
      body: request.body,
      signature: request.headers['gatehouse-signature'] as string,
      secret,
    });
    expect(verified).toMatchObject({ ok: true });
    const forged = await verifyWebhookSignature({
      body: request.body.replace('gate.opened', 'gate.decided'),
      signature: request.headers['gatehouse-signature'] as string,
      secret,
    });
    expect(forged).toMatchObject({ ok: false, reason: 'signature_mismatch' });

    const [opened] = (await test.services.audit.query({ kind: 'gate.opened', subject: gateId })).items;
    const event = JSON.parse(request.body);
    expect(event).toEqual({
      id: opened?.id,
      type: 'gate.opened',
      createdAt: opened?.at,
      actor: opened?.actor,
      subject: gateId,
      data: opened?.data,
    });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'gatehouse-event-id': opened?.id,
      'gatehouse-event-type': 'gate.opened',
      'gatehouse-delivery-attempt': '1',
    });
    const [delivery] = await deliveriesUntil(webhook.id, (items) => items[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({
      eventId: opened?.id,
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(request.headers['gatehouse-delivery-id']).toBe(delivery?.id);
  });

  it('retries a 500 and stops at the first 2xx: one acknowledged delivery, every attempt visible', async () => {
    await start();
    const hook = await receiver((_request, index) =>
      index === 0 ? { status: 500, body: 'database is down\u0000, try later' } : { status: 204 },
    );
    const { webhook } = await register(hook.url);
    await openGate();
    const [delivery] = await deliveriesUntil(webhook.id, (items) => items[0]?.status === 'succeeded');
    // A few more polls: nothing is sent after the acknowledgement.
    await sleep(300);
    expect(hook.received.map((r) => r.status)).toEqual([500, 204]);
    const ids = new Set(hook.received.map((r) => r.headers['gatehouse-event-id']));
    expect(ids.size).toBe(1);
    expect(hook.received.map((r) => r.headers['gatehouse-delivery-attempt'])).toEqual(['1', '2']);

    const detail = await api('GET', `/v1/webhooks/deliveries/${delivery?.id}`);
    expect(detail.delivery).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 204 });
    expect(detail.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, error: 'HTTP 500' }),
      expect.objectContaining({ attempt: 2, statusCode: 204, error: null }),
    ]);
    expect(detail.attempts[0].responseExcerpt).toContain('database is down');
    expect(detail.attempts[0].responseExcerpt).not.toContain('\u0000');
    expect(detail.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(detail.event).toMatchObject({ type: 'gate.opened', id: delivery?.eventId });
  });

  it('puts a delivery to a receiver that refuses connections into the dead letter after the last attempt', async () => {
    await start();
    const { webhook } = await register(await refusingUrl());
    await openGate();
    const [dead] = await deliveriesUntil(webhook.id, (items) => items[0]?.status === 'dead');
    await sleep(300);
    const detail = await api('GET', `/v1/webhooks/deliveries/${dead?.id}`);
    expect(detail.delivery).toMatchObject({
      status: 'dead',
      attempts: 3,
      nextAttemptAt: null,
      lastStatusCode: null,
    });
    expect(detail.attempts).toHaveLength(3);
    for (const attempt of detail.attempts) {
      expect(attempt).toMatchObject({ statusCode: null });
      expect(attempt.error).toContain('ECONNREFUSED');
    }
    const deadOnly = await api('GET', `/v1/webhooks/${webhook.id}/deliveries?status=dead`);
    expect(deadOnly.items.map((d: Json) => d.id)).toEqual([dead?.id]);
    expect((await api('GET', `/v1/webhooks/${webhook.id}/deliveries?status=pending`)).items).toEqual([]);
  });

  it('redelivers on demand: the same event and body as a new delivery, audited', async () => {
    await start();
    const { webhook, secret } = await register(await refusingUrl());
    await openGate();
    const [dead] = await deliveriesUntil(webhook.id, (items) => items[0]?.status === 'dead');
    const hook = await receiver();
    await api('PATCH', `/v1/webhooks/${webhook.id}`, { url: hook.url });

    const { delivery } = await api('POST', `/v1/webhooks/deliveries/${dead?.id}/redeliver`);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 0,
      redeliveryOf: dead?.id,
      eventId: dead?.eventId,
    });
    const [request] = await hook.waitFor(1);
    expect(request?.headers['gatehouse-event-id']).toBe(dead?.eventId);
    const signature = request?.headers['gatehouse-signature'] as string;
    expect(await verifyWebhookSignature({ body: request?.body ?? '', signature, secret })).toMatchObject({
      ok: true,
    });
    const original = await api('GET', `/v1/webhooks/deliveries/${dead?.id}`);
    expect(request?.body).toBe(JSON.stringify(original.event));

    const items = await deliveriesUntil(webhook.id, (list) => list.some((d) => d.status === 'succeeded'));
    expect(items.map((d) => [d.id, d.status])).toEqual([
      [delivery.id, 'succeeded'],
      [dead?.id, 'dead'],
    ]);
    const [audited] = (await test.services.audit.query({ kind: 'webhook.redelivered' })).items;
    expect(audited).toMatchObject({
      actor: `user:${test.ids.adminId}`,
      subject: webhook.id,
      data: { deliveryId: delivery.id, redeliveryOf: dead?.id, eventId: dead?.eventId },
    });
  });

  it('announces gate, run and confidence events to the webhooks subscribed to them, and no others', async () => {
    await start();
    const all = await receiver();
    const pausedOnly = await receiver();
    await register(all.url, [...WEBHOOK_EVENT_TYPES]);
    const paused = await register(pausedOnly.url, ['run.paused']);

    const decided = await openGate('rm -rf one');
    expect(
      (await decideTestGate(test, test.tokens.developer, decided, { option: 'approve' })).statusCode,
    ).toBe(200);
    await openTestGate(test, {
      tool: 'shell',
      args: { command: 'rm -rf two' },
      timeoutSeconds: 1,
      timeoutAction: 'deny',
    });
    await openTestGate(test, {
      tool: 'shell',
      args: { command: 'rm -rf three' },
      timeoutSeconds: 1,
      timeoutAction: 'escalate',
    });
    const run = await createRunViaApi(test);
    for (const body of [
      { kind: 'pause' },
      { kind: 'resume' },
      { kind: 'steer', instruction: 'use the staging bucket' },
    ]) {
      expect((await postIntervention(test, run.id, body)).statusCode).toBe(200);
    }
    const report = await test.app.inject({
      method: 'POST',
      url: '/v1/confidence',
      headers: bearer(test.tokens.agent),
      payload: { runId: run.id, score: 20, reasons: ['tests fail'] },
    });
    expect(report.json()).toMatchObject({ escalated: true });
    expect((await postIntervention(test, run.id, { kind: 'stop' })).statusCode).toBe(200);

    const expected = [
      'gate.opened',
      'gate.decided',
      'gate.expired',
      'gate.escalated',
      'gate.cancelled',
      'run.paused',
      'run.resumed',
      'run.steered',
      'run.stopped',
      'confidence.escalated',
    ];
    const deadline = Date.now() + 15_000;
    let types: string[] = [];
    while (Date.now() < deadline) {
      types = all.received.map((r) => JSON.parse(r.body).type);
      if (expected.every((type) => types.includes(type))) break;
      await sleep(50);
    }
    expect(new Set(types)).toEqual(new Set(expected));
    const ids = all.received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(ids.length);
    const pause = all.received.map((r) => JSON.parse(r.body)).find((e) => e.type === 'run.paused');
    expect(pause).toMatchObject({
      subject: run.id,
      actor: `user:${test.ids.developerId}`,
      data: { from: 'running', to: 'paused' },
    });
    const steer = all.received.map((r) => JSON.parse(r.body)).find((e) => e.type === 'run.steered');
    expect(steer.data.instruction).toBe('use the staging bucket');

    await pausedOnly.waitFor(1);
    await sleep(200);
    expect(pausedOnly.received.map((r) => JSON.parse(r.body).type)).toEqual(['run.paused']);
    const pausedDeliveries = await api('GET', `/v1/webhooks/${paused.webhook.id}/deliveries`);
    expect(pausedDeliveries.items).toHaveLength(1);
  });

  it('stops cleanly with an attempt in flight and gives its claim back for the next start', async () => {
    await start();
    const hook = await receiver(() => 'hold');
    const { webhook } = await register(hook.url);
    await openGate();
    await hook.waitFor(1);
    const started = Date.now();
    await test.app.close();
    expect(Date.now() - started).toBeLessThan(1_500);
    const [delivery] = (await test.store.read((tx) => tx.listWebhookDeliveries({ webhookId: webhook.id })))
      .items;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, claimedUntil: null });
    expect(await test.store.read((tx) => tx.listWebhookAttempts(delivery?.id ?? ''))).toEqual([]);
  });
});
