import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/secrets.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('agents on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  afterEach(async () => {
    await test?.close();
  });

  function createAgent(payload: object) {
    return test.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: bearer(test.tokens.admin),
      payload,
    });
  }

  it('creates an agent with a token shown once, stored only as its hash, audited without it', async () => {
    test = await createTestApp({ dialect });
    const response = await createAgent({ name: 'builder', profile: 'coder', autonomy: 'guided' });
    expect(response.statusCode).toBe(201);
    const { agent, token } = response.json();
    expect(agent).toEqual(expect.objectContaining({ name: 'builder', profile: 'coder', autonomy: 'guided' }));
    expect(token).toMatch(/^gha_[A-Za-z0-9_-]{43}$/);
    const stored = await test.store.read((tx) => tx.getToken(hashToken(token)));
    expect(stored).toEqual(expect.objectContaining({ kind: 'agent', subjectId: agent.id, revokedAt: null }));
    expect(JSON.stringify(stored)).not.toContain(token);
    for await (const event of test.store.streamAudit()) expect(JSON.stringify(event)).not.toContain(token);
    const kinds = (await test.services.audit.query({ subject: agent.id })).items.map((e) => e.kind);
    expect(kinds).toEqual(['agent.created', 'token.issued']);
    const me = await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) });
    expect(me.json().agent.id).toBe(agent.id);
  });

  it('refuses a second agent with a name already taken, 409 naming name, and writes nothing', async () => {
    test = await createTestApp({ dialect });
    expect((await createAgent({ name: 'builder' })).statusCode).toBe(201);
    const before = (await test.store.read((tx) => tx.listAgents())).length;
    const again = await createAgent({ name: 'builder' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual(
      expect.objectContaining({ code: 'CONFLICT', details: expect.objectContaining({ field: 'name' }) }),
    );
    expect(again.json().error.message).toContain('builder');
    const racing = await Promise.all([createAgent({ name: 'twin' }), createAgent({ name: 'twin' })]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await test.store.read((tx) => tx.listAgents())).length).toBe(before + 1);
  });

  it('lists and shows agents to viewers', async () => {
    test = await createTestApp({ dialect });
    const list = await test.app.inject({
      method: 'GET',
      url: '/v1/agents',
      headers: bearer(test.tokens.viewer),
    });
    expect(
      list
        .json()
        .agents.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual([test.ids.agentId, test.ids.otherAgentId]);
    const one = await test.app.inject({
      method: 'GET',
      url: `/v1/agents/${test.ids.agentId}`,
      headers: bearer(test.tokens.viewer),
    });
    expect(one.json().agent.name).toBe('alpha');
    const missing = await test.app.inject({
      method: 'GET',
      url: '/v1/agents/agent_nobody',
      headers: bearer(test.tokens.viewer),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('issues further tokens that work alongside the first', async () => {
    test = await createTestApp({ dialect });
    const issued = await test.app.inject({
      method: 'POST',
      url: `/v1/agents/${test.ids.agentId}/tokens`,
      headers: bearer(test.tokens.admin),
    });
    expect(issued.statusCode).toBe(201);
    const { token } = issued.json();
    for (const t of [token, test.tokens.agent]) {
      expect((await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(t) })).statusCode).toBe(
        200,
      );
    }
  });

  it('revokes every token of the agent for the very next request, and no other agent', async () => {
    test = await createTestApp({ dialect });
    const revoke = await test.app.inject({
      method: 'POST',
      url: `/v1/agents/${test.ids.agentId}/tokens/revoke`,
      headers: bearer(test.tokens.admin),
    });
    expect(revoke.json()).toEqual({ revoked: 1 });
    const me = await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.agent) });
    expect(me.statusCode).toBe(401);
    expect(
      (await test.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(test.tokens.otherAgent) }))
        .statusCode,
    ).toBe(200);
    const event = (await test.services.audit.query({ kind: 'token.revoked' })).items[0];
    expect(event).toEqual(
      expect.objectContaining({ subject: test.ids.agentId, data: { kind: 'agent', revoked: 1 } }),
    );
  });

  it('refuses an unknown autonomy level or profile, naming the field, and writes nothing', async () => {
    test = await createTestApp({ dialect });
    const before = (await test.services.agents.list()).length;
    const autonomy = await createAgent({ name: 'x', autonomy: 'reckless' });
    expect(autonomy.json().error.details.fields[0].field).toBe('autonomy');
    const profile = await createAgent({ name: 'x', profile: 'Has Spaces' });
    expect(profile.json().error.details.fields[0].field).toBe('profile');
    expect((await test.services.agents.list()).length).toBe(before);
  });

  it('answers 404 when issuing a token for an unknown agent', async () => {
    test = await createTestApp({ dialect });
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/agents/agent_nobody/tokens',
      headers: bearer(test.tokens.admin),
    });
    expect(response.statusCode).toBe(404);
  });
});
