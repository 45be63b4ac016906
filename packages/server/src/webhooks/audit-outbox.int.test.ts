import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { createRunViaApi } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('every audited change reaches the webhooks on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let hook: WebhookReceiver;
  afterEach(async () => {
    await hook?.close();
    await test?.close();
  });

  async function start(events: string[]) {
    test = await createTestApp({ dialect, config: { webhookPollIntervalMs: 50 } });
    hook = await startWebhookReceiver();
    const created = await test.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(test.tokens.admin),
      payload: { url: hook.url, events },
    });
    expect(created.statusCode, created.body).toBe(201);
  }

  function complete(runId: string) {
    return test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/complete`,
      headers: bearer(test.tokens.agent),
      payload: {},
    });
  }

  it('announces run.completed when approving its final review completes a run', async () => {
    await start(['run.completed']);
    const run = await createRunViaApi(
      test,
      { agentId: test.ids.agentId, autonomy: 'review' },
      test.tokens.techLead,
    );
    const { gate } = (await complete(run.id)).json();
    const decided = await decideTestGate(test, test.tokens.developer, gate.id, { option: 'approve' });
    expect(decided.statusCode, decided.body).toBe(200);

    const [request] = await hook.waitFor(1);
    expect(request?.headers['gatehouse-event-type']).toBe('run.completed');
    const [audited] = (await test.services.audit.query({ subject: run.id, kind: 'run.completed' })).items;
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      id: audited?.id,
      type: 'run.completed',
      subject: run.id,
      data: { reason: 'final review approved', gateId: gate.id },
    });
  });

  it('announces run.completed when a full-autonomy run completes at once', async () => {
    await start(['run.completed']);
    const run = await createRunViaApi(
      test,
      { agentId: test.ids.agentId, autonomy: 'full' },
      test.tokens.techLead,
    );
    expect((await complete(run.id)).json()).toMatchObject({ run: { status: 'completed' }, gate: null });

    const [request] = await hook.waitFor(1);
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      type: 'run.completed',
      subject: run.id,
      data: { finalReview: false },
    });
  });
});
