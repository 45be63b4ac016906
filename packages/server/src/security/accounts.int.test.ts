import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/secrets.js';
import { auditedTx } from '../services/commit.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { TEST_PASSWORD, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const NEW_PASSWORD = 'a new and long passphrase';

describe.each(dialects)('accounts on %s', (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  async function start() {
    live = await startListeningApp({
      dialect,
      clock: createFakeClock(),
      config: { loginAttemptsPerMinute: 10 },
    });
    return live;
  }

  /** A first admin as the first start makes one: no password anyone knows, one login link. */
  async function firstAdmin(): Promise<{ id: string; link: string }> {
    const { test } = live;
    const id = 'user_first';
    const link = await test.store.transaction(async (tx) => {
      await tx.insertUser({
        id,
        name: 'first',
        role: 'admin',
        passwordHash: null,
        disabled: false,
        createdAt: tx.now,
      });
      return test.services.sessions.issueLoginLink(auditedTx(tx), id, 'system');
    });
    return { id, link: link.token };
  }

  function login(name: string, password: string, from = '127.0.0.1') {
    return live.client.call('POST', '/v1/auth/login', { body: { name, password }, from });
  }

  it('tells a person with no password that signing out locks them out, and lets an admin send a new link', async () => {
    await start();
    const first = await firstAdmin();
    const session = await live.client.call('POST', '/v1/auth/link', { body: { token: first.link } });
    expect(session.status).toBe(200);
    const me = await live.client.call('GET', '/v1/me', { token: session.body.token });
    expect(me.body.hasPassword).toBe(false);
    const out = await live.client.call('POST', '/v1/auth/logout', { token: session.body.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true, hasPassword: false });

    const issued = await live.client.call('POST', `/v1/users/${first.id}/login-link`, {
      token: live.test.tokens.admin,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.token).toMatch(/^ghl_/);
    expect(issued.body.path).toBe(`/login#token=${issued.body.token}`);
    const again = await live.client.call('POST', '/v1/auth/link', { body: { token: issued.body.token } });
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(first.id);
    const events = await live.test.services.audit.query({ kind: 'token.issued', subject: first.id });
    expect(events.items.map((event) => event.actor)).toContain(`user:${live.test.ids.adminId}`);
  });

  it('lets only admins issue login links, and never for a disabled person', async () => {
    await start();
    const byLead = await live.client.call('POST', `/v1/users/${live.test.ids.viewerId}/login-link`, {
      token: live.test.tokens.techLead,
    });
    expect(byLead.status).toBe(403);
    await live.client.call('PATCH', `/v1/users/${live.test.ids.viewerId}`, {
      token: live.test.tokens.admin,
      body: { disabled: true },
    });
    const disabled = await live.client.call('POST', `/v1/users/${live.test.ids.viewerId}/login-link`, {
      token: live.test.tokens.admin,
    });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.message).toContain('disabled');
    const unknown = await live.client.call('POST', '/v1/users/user_nobody/login-link', {
      token: live.test.tokens.admin,
    });
    expect(unknown.status).toBe(404);
  });

  it('lets a person who signed in by link set a password, then sign in with it', async () => {
    await start();
    const first = await firstAdmin();
    const session = await live.client.call('POST', '/v1/auth/link', { body: { token: first.link } });
    const set = await live.client.call('PUT', '/v1/me/password', {
      token: session.body.token,
      body: { newPassword: NEW_PASSWORD },
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ok: true });
    expect((await login('first', NEW_PASSWORD)).status).toBe(200);
    const out = await live.client.call('POST', '/v1/auth/logout', { token: session.body.token });
    expect(out.body.hasPassword).toBe(true);
    const events = await live.test.services.audit.query({ kind: 'user.password_changed', subject: first.id });
    expect(events.items).toHaveLength(1);
    expect(JSON.stringify(events.items[0]?.data)).not.toContain(NEW_PASSWORD);
  });

  it('asks for the current password to change one, unless the sign-in is under 5 minutes old', async () => {
    await start();
    const token = live.test.tokens.developer;
    live.test.clock.advance(5 * 60_000 + 1);
    const bare = await live.client.call('PUT', '/v1/me/password', {
      token,
      body: { newPassword: NEW_PASSWORD },
    });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('REAUTHENTICATION_REQUIRED');
    expect(bare.body.error.details.field).toBe('currentPassword');
    const wrong = await live.client.call('PUT', '/v1/me/password', {
      token,
      body: { currentPassword: 'not my password at all', newPassword: NEW_PASSWORD },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('REAUTHENTICATION_REQUIRED');
    const right = await live.client.call('PUT', '/v1/me/password', {
      token,
      body: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(right.status).toBe(200);
    expect((await login('dev', TEST_PASSWORD)).status).toBe(401);
    expect((await login('dev', NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a short password or one equal to the name, naming the field', async () => {
    await start();
    const token = live.test.tokens.developer;
    const short = await live.client.call('PUT', '/v1/me/password', { token, body: { newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toContain('newPassword');
    await live.test.store.transaction(async (tx) => {
      const user = await tx.getUser(live.test.ids.developerId);
      if (user)
        await tx.updateUser({ ...user, name: 'developer-person', passwordHash: await hashPassword('x') });
    });
    const same = await live.client.call('PUT', '/v1/me/password', {
      token,
      body: { newPassword: 'developer-person' },
    });
    expect(same.status).toBe(400);
    expect(same.body.error.message).toContain('newPassword');
  });

  it('keeps the owner signing in from elsewhere while wrong passwords pile up from one address', async () => {
    await start();
    for (let i = 0; i < 12; i++) {
      const attempt = await login('dev', `wrong guess ${i}`, '127.0.0.6');
      expect([401, 429]).toContain(attempt.status);
    }
    const owner = await login('dev', TEST_PASSWORD, '127.0.0.1');
    expect(owner.status).toBe(200);
  });

  it('slows one address down with a growing wait, at most 5 minutes, and says how long in Retry-After', async () => {
    await start();
    const waits: number[] = [];
    for (let i = 0; i < 40; i++) {
      const attempt = await login('dev', 'wrong', '127.0.0.7');
      if (attempt.status === 429) {
        expect(attempt.body.error.code).toBe('RATE_LIMITED');
        const seconds = Number(attempt.headers['retry-after']);
        waits.push(seconds);
        live.test.clock.advance(seconds * 1000);
      } else expect(attempt.status).toBe(401);
    }
    expect(waits.length).toBeGreaterThan(5);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(Math.max(...waits)).toBeLessThanOrEqual(300);
    const owner = await login('dev', TEST_PASSWORD, '127.0.0.7');
    const wait = owner.status === 429 ? Number(owner.headers['retry-after']) : 0;
    expect(wait).toBeLessThanOrEqual(300);
    live.test.clock.advance(wait * 1000);
    expect((await login('dev', TEST_PASSWORD, '127.0.0.7')).status).toBe(200);
  });
});
