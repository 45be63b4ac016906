import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('people on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  afterEach(async () => {
    await test?.close();
  });

  function patch(id: string, payload: object, token = test.tokens.admin) {
    return test.app.inject({ method: 'PATCH', url: `/v1/users/${id}`, headers: bearer(token), payload });
  }

  it('lets an admin create a person who can then log in, audited without the password', async () => {
    test = await createTestApp({ dialect });
    const created = await test.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: bearer(test.tokens.admin),
      payload: { name: 'grace', password: 'a long enough password', role: 'tech_lead' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().user).toEqual(
      expect.objectContaining({ name: 'grace', role: 'tech_lead', disabled: false }),
    );
    const login = await test.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { name: 'grace', password: 'a long enough password' },
    });
    expect(login.statusCode).toBe(200);
    const events = await test.services.audit.query({ kind: 'user.created' });
    expect(events.items[0]).toEqual(
      expect.objectContaining({
        actor: `user:${test.ids.adminId}`,
        data: { name: 'grace', role: 'tech_lead' },
      }),
    );
    for await (const event of test.store.streamAudit())
      expect(JSON.stringify(event)).not.toContain('a long enough password');
  });

  it('refuses a second person with the same name', async () => {
    test = await createTestApp({ dialect });
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: bearer(test.tokens.admin),
      payload: { name: 'dev', password: 'a long enough password', role: 'viewer' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('CONFLICT');
  });

  it('refuses a short password and a bad name, naming the field', async () => {
    test = await createTestApp({ dialect });
    const short = await test.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: bearer(test.tokens.admin),
      payload: { name: 'eve', password: 'short', role: 'viewer' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details.fields[0].field).toBe('password');
    const badName = await test.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: bearer(test.tokens.admin),
      payload: { name: 'eve\u202e', password: 'a long enough password', role: 'viewer' },
    });
    expect(badName.json().error.details.fields[0].field).toBe('name');
  });

  it('lists people without password hashes', async () => {
    test = await createTestApp({ dialect });
    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/users',
      headers: bearer(test.tokens.admin),
    });
    expect(
      response
        .json()
        .users.map((u: { name: string }) => u.name)
        .sort(),
    ).toEqual(['admin', 'dev', 'lead', 'viewer']);
    expect(response.body).not.toContain('scrypt');
  });

  it('applies a role change to the very next request of that person', async () => {
    test = await createTestApp({ dialect });
    expect((await patch(test.ids.techLeadId, { role: 'admin' })).statusCode).toBe(200);
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/users', headers: bearer(test.tokens.techLead) }))
        .statusCode,
    ).toBe(200);
    expect((await patch(test.ids.techLeadId, { role: 'developer' })).json().user.role).toBe('developer');
    const next = await test.app.inject({
      method: 'GET',
      url: '/v1/users',
      headers: bearer(test.tokens.techLead),
    });
    expect(next.statusCode).toBe(403);
    expect(next.json().error.code).toBe('ROLE_TOO_LOW');
    const changes = await test.services.audit.query({ kind: 'user.role_changed' });
    expect(changes.items.map((e) => e.data)).toEqual([
      { from: 'tech_lead', to: 'admin' },
      { from: 'admin', to: 'developer' },
    ]);
  });

  it('disabling a person revokes their sessions at once; enabling does not bring them back', async () => {
    test = await createTestApp({ dialect });
    expect((await patch(test.ids.developerId, { disabled: true })).json().user.disabled).toBe(true);
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.developer) }))
        .statusCode,
    ).toBe(401);
    expect((await patch(test.ids.developerId, { disabled: false })).statusCode).toBe(200);
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.developer) }))
        .statusCode,
    ).toBe(401);
    const kinds = (await test.services.audit.query({ subject: test.ids.developerId })).items.map(
      (e) => e.kind,
    );
    expect(kinds).toEqual(['user.disabled', 'user.enabled']);
  });

  it('keeps the last admin: no self-demotion or self-disable, and nothing is written', async () => {
    test = await createTestApp({ dialect });
    const before = (await test.services.audit.query({ limit: 500 })).items.length;
    for (const payload of [{ role: 'tech_lead' }, { disabled: true }]) {
      const response = await patch(test.ids.adminId, payload);
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('INVALID_TRANSITION');
    }
    expect((await test.services.audit.query({ limit: 500 })).items.length).toBe(before);
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/users', headers: bearer(test.tokens.admin) }))
        .statusCode,
    ).toBe(200);
  });

  it('lets an admin step down once another admin exists', async () => {
    test = await createTestApp({ dialect });
    await patch(test.ids.techLeadId, { role: 'admin' });
    expect((await patch(test.ids.adminId, { role: 'viewer' })).statusCode).toBe(200);
    expect((await patch(test.ids.techLeadId, { disabled: true }, test.tokens.techLead)).statusCode).toBe(409);
  });

  it('answers 404 for an unknown person and 400 for an empty change', async () => {
    test = await createTestApp({ dialect });
    expect((await patch('user_nobody', { role: 'viewer' })).json().error.code).toBe('NOT_FOUND');
    const empty = await patch(test.ids.viewerId, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('role');
    expect((await patch('agent_alpha', { role: 'viewer' })).statusCode).toBe(400);
  });
});
