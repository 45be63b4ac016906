import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { NOTIFICATION_CHANNEL_DEFINITIONS } from '../services/notifications/channels/index.js';
import { createFixtureChannel } from '../testing/fixture-channel.js';
import { useTestPolicy } from '../testing/gates.js';
import {
  bearer,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestDialect,
} from '../testing/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

/** The agent's own trace and span, as its instrumentation would send them. */
const AGENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const AGENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${AGENT_TRACE}-${AGENT_SPAN}-01`;

async function until<T>(find: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(dialects)('OpenTelemetry traces on %s', { timeout: 60_000 }, (dialect) => {
  let test: TestApp<{ now(): number }>;
  let exporter: InMemorySpanExporter;
  let receiver: WebhookReceiver | null = null;
  afterEach(async () => {
    await test?.close();
    await receiver?.close();
    receiver = null;
  });

  async function start(options: Pick<TestAppOptions<{ now(): number }>, 'notificationChannels'> = {}) {
    exporter = new InMemorySpanExporter();
    const notifications = { ...loadConfig({}).notifications, pollIntervalMs: 20, maxAttempts: 1 };
    test = await createTestApp({
      dialect,
      telemetry: { spanExporter: exporter },
      config: { webhookPollIntervalMs: 50, notifications },
      ...options,
    });
    await useTestPolicy(test);
  }

  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().find((span) => span.name === name);

  async function openGate(headers: Record<string, string> = {}) {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/gates',
      headers: { ...bearer(test.tokens.agent), ...headers },
      payload: { tool: 'shell', args: { command: 'make deploy' } },
    });
    expect(response.statusCode).toBe(200);
    const gateId = (response.json() as { gate: { id: string } }).gate.id;
    return { gateId, traceresponse: String(response.headers.traceresponse ?? '') };
  }

  async function decide(app: FastifyInstance, gateId: string) {
    const response = await app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(test.tokens.developer),
      payload: { option: 'approve', reason: 'looks right' },
    });
    expect(response.statusCode).toBe(200);
  }

  it('records a server span per request, named by its route, and names it in a traceresponse header', async () => {
    await start();
    const { gateId } = await openGate();
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.developer),
    });
    const span = await until(() => named('GET /v1/gates/:id'));
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/v1/gates/:id',
      'http.response.status_code': 200,
      'gatehouse.gate.id': gateId,
    });
    const { traceId, spanId } = span.spanContext();
    expect(response.headers.traceresponse).toBe(`00-${traceId}-${spanId}-01`);
  });

  it('puts a gate in the agent’s trace: opened with its traceparent, decided later (on another node on Postgres)', async () => {
    await start();
    const { gateId, traceresponse } = await openGate({ traceparent: TRACEPARENT });
    const [, traceId, gateSpanId] = traceresponse.split('-');
    expect(traceId).toBe(AGENT_TRACE);
    const opening = await until(() => named('POST /v1/gates'));
    expect(opening.spanContext().traceId).toBe(AGENT_TRACE);
    expect(opening.parentSpanContext?.spanId).toBe(AGENT_SPAN);
    expect(spans().some(isGateSpan)).toBe(false);

    await new Promise((resolve) => setTimeout(resolve, 30));
    const decider = dialect === 'postgres' ? await test.secondNode() : test.app;
    await decide(decider, gateId);
    await decider.gatehouse.context.telemetry?.settled();

    const gateSpan = await until(() => spans().find(isGateSpan));
    expect(gateSpan.name).toMatch(/^gate /);
    expect(gateSpan.spanContext().traceId).toBe(AGENT_TRACE);
    expect(gateSpan.spanContext().spanId).toBe(gateSpanId);
    expect(gateSpan.parentSpanContext?.spanId).toBe(AGENT_SPAN);
    expect(gateSpan.attributes).toMatchObject({
      'gatehouse.gate.id': gateId,
      'gatehouse.gate.outcome': 'approved',
    });
    expect(gateSpan.events.map((event) => event.name)).toEqual(['opened', 'decided']);
    const decided = gateSpan.events[1]?.attributes ?? {};
    expect(decided['gatehouse.gate.outcome']).toBe('approved');
    expect(decided['gatehouse.gate.wait_ms']).toBeGreaterThanOrEqual(30);
    expect(durationMs(gateSpan)).toBeGreaterThanOrEqual(30);

    const decision = await until(() => named('decide gate'));
    const decideRequest = await until(() => named('POST /v1/gates/:id/decide'));
    expect(decision.parentSpanContext?.spanId).toBe(decideRequest.spanContext().spanId);
    expect(decision.attributes).toMatchObject({
      'gatehouse.gate.id': gateId,
      'gatehouse.gate.outcome': 'approved',
    });
    expect(decision.links.map((link) => link.context.spanId)).toEqual([gateSpanId]);
  });

  it('records the span of a gate the server opens itself, in a trace of its own', async () => {
    await start();
    const gate = await test.services.gates.open({
      type: 'tool_call',
      tool: 'deploy',
      args: {},
      agentId: test.ids.agentId,
      requestedBy: `agent:${test.ids.agentId}`,
    });
    await decide(test.app, gate.id);
    const span = await until(() =>
      spans().find(
        (candidate) => isGateSpan(candidate) && candidate.attributes['gatehouse.gate.id'] === gate.id,
      ),
    );
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.events.map((event) => event.name)).toEqual(['opened', 'decided']);
  });

  it('marks each notice sent before the decision on the gate’s span, and records a span per notice delivery', async () => {
    const channel = createFixtureChannel({ configured: true });
    await start({ notificationChannels: [...NOTIFICATION_CHANNEL_DEFINITIONS, channel.definition] });
    const { gateId } = await openGate({ traceparent: TRACEPARENT });
    await channel.waitFor(3);
    await until(async () => {
      const sent = await test.store.read((tx) => tx.listNotifications({ gateId, status: 'sent' }));
      return sent.items.length === 3 ? true : undefined;
    });
    await decide(test.app, gateId);
    await test.ctx.telemetry?.settled();

    const gateSpan = await until(() => spans().find(isGateSpan));
    expect(gateSpan.events.map((event) => event.name)).toEqual([
      'opened',
      'notice sent',
      'notice sent',
      'notice sent',
      'decided',
    ]);
    expect(gateSpan.events[1]?.attributes).toMatchObject({
      'gatehouse.notice.channel': 'fixture',
      'gatehouse.notice.trigger': 'gate.opened',
    });
    const deliveries = spans().filter((span) => span.name === 'notification delivery');
    const opened = deliveries.filter((span) => span.attributes['gatehouse.notice.trigger'] === 'gate.opened');
    expect(opened).toHaveLength(3);
    for (const delivery of opened) {
      expect(delivery.attributes).toMatchObject({
        'gatehouse.notice.channel': 'fixture',
        'gatehouse.notice.outcome': 'sent',
        'gatehouse.gate.id': gateId,
      });
    }
  });

  it('records a span per webhook delivery with its outcome', async () => {
    await start();
    receiver = await startWebhookReceiver();
    const created = await test.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(test.tokens.admin),
      payload: { url: receiver.url, events: ['gate.opened'] },
    });
    expect(created.statusCode).toBeLessThan(300);
    await openGate();
    await receiver.waitFor(1);
    const delivery = await until(() => named('webhook delivery'));
    expect(delivery.attributes).toMatchObject({
      'gatehouse.webhook.event_type': 'gate.opened',
      'gatehouse.webhook.outcome': 'delivered',
      'http.response.status_code': 200,
    });
  });
});

/** The span of a gate's life carries its type; the request and decision spans do not. */
function isGateSpan(span: ReadableSpan): boolean {
  return span.attributes['gatehouse.gate.type'] !== undefined;
}

function durationMs(span: ReadableSpan): number {
  return span.duration[0] * 1000 + span.duration[1] / 1e6;
}
