import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createFakeClock, keyProofText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { auditedTx } from '../services/commit.js';
import { LOGIN_LINK_TTL_MS, SESSION_TTL_MS } from '../services/people/sessions.js';
import { bearer, createTestApp, TEST_PASSWORD, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

async function auditKinds(test: TestApp<{ now(): number }>): Promise<string[]> {
  const kinds: string[] = [];
  for await (const event of test.store.streamAudit()) kinds.push(event.kind);
  return kinds;
}

describe.each(dialects)('sessions on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start(loginAttemptsPerMinute = 10) {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { loginAttemptsPerMinute } });
    return test;
  }

  function login(name: string, password: string, ip = '10.0.0.1') {
    return test.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { name, password },
      remoteAddress: ip,
    });
  }

  it('logs a person in with a 12-hour session token, also set as a strict HttpOnly cookie', async () => {
    await start();
    const response = await login('dev', TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^ghs_/);
    expect(body.user).toEqual(expect.objectContaining({ name: 'dev', role: 'developer' }));
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(body.expiresAt).toBe(test.clock.now() + SESSION_TTL_MS);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toContain(`gatehouse_session=${body.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');

    const me = await test.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: { cookie: `gatehouse_session=${body.token}` },
    });
    expect(me.json()).toEqual(
      expect.objectContaining({ kind: 'user', user: expect.objectContaining({ name: 'dev' }) }),
    );
    expect(await auditKinds(test)).toContain('session.started');
  });

  it('ends the session after 12 hours', async () => {
    await start();
    const { token } = (await login('dev', TEST_PASSWORD)).json();
    test.clock.advance(SESSION_TTL_MS);
    const me = await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it('gives the same answer for an unknown name and a wrong password, and audits both', async () => {
    await start();
    const unknown = await login('nobody', TEST_PASSWORD);
    const wrong = await login('dev', 'not the password');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json().error).toEqual(wrong.json().error);
    expect((await auditKinds(test)).filter((kind) => kind === 'login.failed')).toHaveLength(2);
    for await (const event of test.store.streamAudit())
      expect(JSON.stringify(event.data)).not.toContain('not the password');
  });

  it('refuses a disabled person with the same answer as a wrong password', async () => {
    await start();
    const patch = await test.app.inject({
      method: 'PATCH',
      url: `/v1/users/${test.ids.developerId}`,
      headers: bearer(test.tokens.admin),
      payload: { disabled: true },
    });
    expect(patch.statusCode).toBe(200);
    const response = await login('dev', TEST_PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('name or password is wrong');
  });

  it('slows a name at one address down, never the name at other addresses, and opens again after the wait', async () => {
    await start(3);
    for (let i = 0; i < 3; i += 1) expect((await login('dev', 'wrong', '10.0.0.1')).statusCode).toBe(401);
    const limited = await login('dev', TEST_PASSWORD, '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 1 } });
    expect((await login('dev', TEST_PASSWORD, '10.0.0.9')).statusCode).toBe(200);
    test.clock.advance(1000);
    expect((await login('dev', TEST_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('slows an address down across names, after five times the free attempts', async () => {
    await start(1);
    for (let i = 0; i < 5; i += 1) expect((await login(`a${i}`, 'x', '10.9.9.9')).statusCode).toBe(401);
    expect((await login('a9', 'x', '10.9.9.9')).statusCode).toBe(429);
    expect((await login('a9', 'x', '10.9.9.8')).statusCode).toBe(401);
  });

  it('does not audit refused attempts while rate-limited', async () => {
    await start(1);
    await login('dev', 'wrong');
    const before = (await auditKinds(test)).length;
    expect((await login('dev', 'wrong')).statusCode).toBe(429);
    expect((await auditKinds(test)).length).toBe(before);
  });

  it('logs out: the session token stops working at once and the cookie is cleared', async () => {
    await start();
    const { token } = (await login('dev', TEST_PASSWORD)).json();
    const out = await test.app.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) })).statusCode).toBe(
      401,
    );
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.developer) }))
        .statusCode,
    ).toBe(200);
  });

  it('exchanges a one-time login link once, within 15 minutes', async () => {
    await start();
    const link = await test.store.transaction((tx) =>
      test.services.sessions.issueLoginLink(auditedTx(tx), test.ids.viewerId, 'system'),
    );
    expect(link.expiresAt).toBe(test.clock.now() + LOGIN_LINK_TTL_MS);
    const first = await test.app.inject({
      method: 'POST',
      url: '/v1/auth/link',
      payload: { token: link.token },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().user.name).toBe('viewer');
    const second = await test.app.inject({
      method: 'POST',
      url: '/v1/auth/link',
      payload: { token: link.token },
    });
    expect(second.statusCode).toBe(401);

    const late = await test.store.transaction((tx) =>
      test.services.sessions.issueLoginLink(auditedTx(tx), test.ids.viewerId, 'system'),
    );
    test.clock.advance(LOGIN_LINK_TTL_MS);
    const expired = await test.app.inject({
      method: 'POST',
      url: '/v1/auth/link',
      payload: { token: late.token },
    });
    expect(expired.statusCode).toBe(401);
  });

  it('lets only one of two racing exchanges of the same link win', async () => {
    await start();
    const link = await test.store.transaction((tx) =>
      test.services.sessions.issueLoginLink(auditedTx(tx), test.ids.viewerId, 'system'),
    );
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        test.app.inject({ method: 'POST', url: '/v1/auth/link', payload: { token: link.token } }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('does not accept an agent token or a session token as a login link', async () => {
    await start();
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/auth/link',
      payload: { token: test.tokens.agent },
    });
    expect(response.statusCode).toBe(400);
    const session = `ghl_${test.tokens.viewer.slice(4)}`;
    expect(
      (await test.app.inject({ method: 'POST', url: '/v1/auth/link', payload: { token: session } }))
        .statusCode,
    ).toBe(401);
  });

  it('tells an agent who it is', async () => {
    await start();
    const me = await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.agent) });
    expect(me.json()).toEqual({ kind: 'agent', agent: expect.objectContaining({ id: test.ids.agentId }) });
  });

  async function registerWithProof(token: string, userId: string, publicKey: string, privateKey: KeyObject) {
    const challenge = (
      await test.app.inject({ method: 'GET', url: '/v1/me/keys/challenge', headers: bearer(token) })
    ).json().challenge;
    const proof = sign(null, Buffer.from(keyProofText({ challenge, userId })), privateKey).toString('base64');
    return test.app.inject({
      method: 'POST',
      url: '/v1/me/keys',
      headers: bearer(token),
      payload: { publicKey, challenge, proof },
    });
  }

  it('registers an Ed25519 key as PEM or raw base64, audited without the key itself', async () => {
    await start();
    const { publicKey: key, privateKey } = generateKeyPairSync('ed25519');
    const pem = key.export({ format: 'pem', type: 'spki' }).toString();
    const response = await registerWithProof(test.tokens.developer, test.ids.developerId, pem, privateKey);
    expect(response.statusCode).toBe(201);
    expect(response.json().key.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const raw = key.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    const again = await registerWithProof(test.tokens.developer, test.ids.developerId, raw, privateKey);
    expect(again.statusCode).toBe(409);
    const me = await test.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: bearer(test.tokens.developer),
    });
    expect(me.json().keys).toHaveLength(1);
    const events = await test.services.audit.query({ kind: 'key.registered' });
    expect(events.items).toHaveLength(1);
    expect(JSON.stringify(events.items[0]?.data)).not.toContain(raw);
  });

  it('refuses a key that is not Ed25519, naming the field', async () => {
    await start();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const response = await registerWithProof(
      test.tokens.viewer,
      test.ids.viewerId,
      rsa,
      generateKeyPairSync('ed25519').privateKey,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('publicKey');
  });

  it('does not let an agent register a signing key', async () => {
    await start();
    const raw = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'der', type: 'spki' })
      .subarray(12)
      .toString('base64');
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/me/keys',
      headers: bearer(test.tokens.agent),
      payload: { publicKey: raw, challenge: `ghk_${'a'.repeat(43)}`, proof: `${'A'.repeat(86)}==` },
    });
    expect(response.statusCode).toBe(403);
  });
});
