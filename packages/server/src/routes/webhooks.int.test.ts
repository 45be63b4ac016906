import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotState } from '../testing/state-snapshot.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('webhook registration on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    // Nothing subscribes to what these tests do, and the worker is not what they check.
    test = await createTestApp({ dialect, config: { webhookPollIntervalMs: 60_000 } });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token?: string) {
    return test.app.inject({
      method,
      url,
      headers: bearer(token ?? test.tokens.admin),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }

  async function auditOf(subject: string) {
    return (await test.services.audit.query({ subject })).items;
  }

  it('shows the secret once, at creation, and never again: not in reads, lists or the audit', async () => {
    const created = await call('POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/services/T0/B0/token-in-path?x=1',
      events: ['gate.opened', 'gate.decided', 'gate.opened'],
      description: 'reviewers\u0007 channel',
    });
    expect(created.statusCode).toBe(201);
    const { webhook, secret } = created.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: 'https://hooks.example.com/services/T0/B0/token-in-path?x=1',
      events: ['gate.opened', 'gate.decided'],
      description: 'reviewers⟨U+0007⟩ channel',
      enabled: true,
      createdBy: `user:${test.ids.adminId}`,
    });
    const shown = await call('GET', `/v1/webhooks/${webhook.id}`);
    expect(shown.json()).toEqual({ webhook });
    const listed = await call('GET', '/v1/webhooks');
    expect(listed.json().webhooks).toContainEqual(webhook);
    for (const body of [shown.body, listed.body]) expect(body).not.toContain(secret);

    const [audited] = await auditOf(webhook.id);
    expect(audited).toMatchObject({
      kind: 'webhook.created',
      actor: `user:${test.ids.adminId}`,
      data: { urlOrigin: 'https://hooks.example.com', events: ['gate.opened', 'gate.decided'] },
    });
    // Webhook URLs often carry credentials of their own: the audit keeps only origin and hash.
    expect(JSON.stringify(audited)).not.toContain('token-in-path');
    expect(JSON.stringify(audited)).not.toContain(secret);
  });

  it('changes, rotates the secret (shown in that answer only), disables and deletes, each audited', async () => {
    const { webhook, secret } = (
      await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/a', events: ['run.paused'] })
    ).json();
    const changed = await call('PATCH', `/v1/webhooks/${webhook.id}`, {
      url: 'https://hooks.example.com/b',
      events: ['run.stopped', 'confidence.escalated'],
      enabled: false,
      description: null,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      secret: null,
      webhook: {
        url: 'https://hooks.example.com/b',
        events: ['run.stopped', 'confidence.escalated'],
        enabled: false,
      },
    });
    const rotated = await call('PATCH', `/v1/webhooks/${webhook.id}`, { rotateSecret: true });
    const fresh = rotated.json().secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`)).body).not.toContain(fresh);

    const deleted = await call('DELETE', `/v1/webhooks/${webhook.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`)).json().error.code).toBe('NOT_FOUND');

    const trail = await auditOf(webhook.id);
    expect(trail.map((event) => [event.kind, event.data.changed ?? null])).toEqual([
      ['webhook.created', null],
      ['webhook.updated', ['url', 'events', 'description', 'enabled']],
      ['webhook.updated', ['secret']],
      ['webhook.deleted', null],
    ]);
    for (const key of [secret, fresh]) expect(JSON.stringify(trail)).not.toContain(key);
  });

  it.each([
    ['ftp', 'ftp://hooks.example.com/x', 'must use http or https'],
    ['javascript', 'javascript:alert(1)', 'must use http or https'],
    ['relative', 'not a url', 'must be an absolute http:// or https:// URL'],
    ['with credentials', 'https://user:pass@hooks.example.com/x', 'must not carry a user name or password'],
    ['with a fragment', 'https://hooks.example.com/x#part', 'must not have a #fragment'],
    ['over 2048 characters', `https://hooks.example.com/${'x'.repeat(2100)}`, '2048'],
  ])('refuses a URL %s naming url, and writes nothing', async (_label, url, message) => {
    const before = await snapshotState(test.store);
    const response = await call('POST', '/v1/webhooks', { url, events: ['gate.opened'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(response.body).toContain('url');
    expect(response.json().error.message).toContain(message);
    expect(await snapshotState(test.store)).toBe(before);
  });

  it('refuses unknown event types, an empty list and an empty change, naming the field', async () => {
    const unknown = await call('POST', '/v1/webhooks', {
      url: 'https://a.example.com/',
      events: ['gate.eaten'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('events');
    const empty = await call('POST', '/v1/webhooks', { url: 'https://a.example.com/', events: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('events');
    const { webhook } = (
      await call('POST', '/v1/webhooks', { url: 'https://a.example.com/', events: ['gate.opened'] })
    ).json();
    const nothing = await call('PATCH', `/v1/webhooks/${webhook.id}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.message).toContain('give at least one of');
    const badUrl = await call('PATCH', `/v1/webhooks/${webhook.id}`, { url: 'file:///etc/passwd' });
    expect(badUrl.statusCode).toBe(400);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`)).json().webhook.url).toBe(
      'https://a.example.com/',
    );
  });

  it('lets only admins in', async () => {
    for (const token of [test.tokens.techLead, test.tokens.viewer]) {
      const list = await call('GET', '/v1/webhooks', undefined, token);
      expect(list.statusCode).toBe(403);
      expect(list.json().error.code).toBe('ROLE_TOO_LOW');
    }
    const agent = await call(
      'POST',
      '/v1/webhooks',
      { url: 'https://a.example.com/', events: ['gate.opened'] },
      test.tokens.agent,
    );
    expect(agent.statusCode).toBe(403);
    const anonymous = await test.app.inject({ method: 'GET', url: '/v1/webhooks' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 404 for deliveries of a missing webhook and a missing delivery', async () => {
    expect((await call('GET', '/v1/webhooks/wh_missing/deliveries')).statusCode).toBe(404);
    expect((await call('GET', '/v1/webhooks/deliveries/whd_missing')).statusCode).toBe(404);
    const redeliver = await call('POST', '/v1/webhooks/deliveries/whd_missing/redeliver');
    expect(redeliver.statusCode).toBe(404);
    expect(redeliver.json().error.code).toBe('NOT_FOUND');
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/webhooks',
        '/v1/webhooks/{id}',
        '/v1/webhooks/{id}/deliveries',
        '/v1/webhooks/deliveries/{deliveryId}',
        '/v1/webhooks/deliveries/{deliveryId}/redeliver',
      ]),
    );
  });
});
