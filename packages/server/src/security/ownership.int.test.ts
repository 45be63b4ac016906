import { generateKeyPairSync, sign } from 'node:crypto';
import { createFakeClock, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const OWNER_POLICY = `name: owner-tests
defaultAction: gate
rules:
  - id: separated
    priority: 500
    match: { tools: [ship] }
    action: { gate: { separationOfDuties: true } }
    reason: The owner may not ship alone.
  - id: signed
    priority: 500
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
  - id: signed-without-separation
    priority: 500
    match: { tools: [wire_small] }
    action: { gate: { signature: true, separationOfDuties: false } }
    reason: Small amounts.
`;

describe.each(dialects)('objects of other agents on %s', (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  async function start() {
    live = await startListeningApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(live.test);
    return live;
  }

  function errorOf(body: { error: { code: string; message: string; details: Record<string, unknown> } }) {
    return body.error;
  }

  it("answers another agent's gate, its wait and its one-off approval exactly like an unknown gate", async () => {
    await start();
    const { tokens } = live.test;
    const opened = await live.client.call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'shell', args: { command: 'make' } },
    });
    const gateId: string = opened.body.gateId;
    const unknownId = `gate_${'z'.repeat(gateId.length - 5)}`;
    const paths = (id: string) =>
      [
        ['GET', `/v1/gates/${id}`, undefined],
        ['GET', `/v1/gates/${id}/wait`, undefined],
        ['POST', `/v1/gates/${id}/consume`, { payloadHash: 'a'.repeat(64) }],
        ['POST', `/v1/gates/${id}/steer-failed`, { reason: 'it did not work' }],
        ['POST', `/v1/gates/${id}/withdraw`, { reason: 'not needed' }],
      ] as const;
    const unknownPaths = paths(unknownId);
    for (const [i, [method, path, body]] of paths(gateId).entries()) {
      const unknownPath = unknownPaths[i]?.[1] ?? '';
      const theirs = await live.client.call(method, path, { token: tokens.otherAgent, body });
      const unknown = await live.client.call(method, unknownPath, { token: tokens.otherAgent, body });
      expect({ path, status: theirs.status }).toEqual({ path, status: 404 });
      expect(unknown.status).toBe(404);
      expect(errorOf(theirs.body).code).toBe('NOT_FOUND');
      expect(errorOf(theirs.body).message.replace(gateId, 'ID')).toBe(
        errorOf(unknown.body).message.replace(unknownId, 'ID'),
      );
      expect(Object.keys(errorOf(theirs.body).details)).toEqual(Object.keys(errorOf(unknown.body).details));
    }
  });

  it("answers another agent's run, its events, its interventions and gates asked under it like an unknown run", async () => {
    await start();
    const { tokens } = live.test;
    const run = (await live.client.call('POST', '/v1/runs', { token: tokens.agent, body: {} })).body.run;
    const unknownId = `run_${'z'.repeat(run.id.length - 4)}`;
    const calls = (id: string) =>
      [
        ['GET', `/v1/runs/${id}`, undefined],
        ['GET', `/v1/runs/${id}/interventions`, undefined],
        ['GET', `/v1/runs/${id}/events?after=0`, undefined],
        ['POST', `/v1/runs/${id}/checkpoint`, { phase: 1, type: 'tactical' }],
        ['POST', `/v1/runs/${id}/complete`, {}],
        ['POST', '/v1/gates', { runId: id, tool: 'shell', args: { command: 'make' } }],
      ] as const;
    const theirs = calls(run.id);
    const unknown = calls(unknownId);
    for (let i = 0; i < theirs.length; i++) {
      const [method, path, body] = theirs[i] as (typeof theirs)[number];
      const [, unknownPath, unknownBody] = unknown[i] as (typeof unknown)[number];
      const a = await live.client.call(method, path, { token: tokens.otherAgent, body });
      const b = await live.client.call(method, unknownPath, { token: tokens.otherAgent, body: unknownBody });
      expect({ path, status: a.status }).toEqual({ path, status: 404 });
      expect(b.status).toBe(404);
      expect(errorOf(a.body).code).toBe('NOT_FOUND');
      expect(errorOf(a.body).message.replace(run.id, 'ID')).toBe(
        errorOf(b.body).message.replace(unknownId, 'ID'),
      );
    }
  });
});

describe.each(dialects)('separation of duties from the agent owner on %s', (dialect) => {
  let live: ListeningApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await live?.close();
  });

  /** An agent the admin creates through the API, so the admin owns it. */
  async function start(): Promise<{ agentId: string; agentToken: string }> {
    live = await startListeningApp({ dialect, clock: createFakeClock() });
    await live.test.services.policies.replace(live.test.ids.adminId, {
      source: OWNER_POLICY,
      format: 'yaml',
    });
    const created = await live.client.call('POST', '/v1/agents', {
      token: live.test.tokens.admin,
      body: { name: 'owned' },
    });
    expect(created.status).toBe(201);
    expect(created.body.agent.createdBy).toBe(live.test.ids.adminId);
    return { agentId: created.body.agent.id, agentToken: created.body.token };
  }

  async function openGate(agentToken: string, tool: string) {
    const opened = await live.client.call('POST', '/v1/gates', {
      token: agentToken,
      body: { tool, args: {} },
    });
    expect(opened.body.outcome).toBe('gated');
    return opened.body.gate;
  }

  async function registerKey(token: string, userId: string) {
    const keys = generateKeyPairSync('ed25519');
    const challenge = (await live.client.call('GET', '/v1/me/keys/challenge', { token })).body.challenge;
    const proof = sign(null, Buffer.from(keyProofText({ challenge, userId })), keys.privateKey).toString(
      'base64',
    );
    const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    const answer = await live.client.call('POST', '/v1/me/keys', {
      token,
      body: { publicKey, challenge, proof },
    });
    expect(answer.status).toBe(201);
    return keys;
  }

  it('refuses the owner approving a gate that asks for separation, with OWNER_APPROVAL; others may', async () => {
    const { agentToken } = await start();
    const { tokens } = live.test;
    const gate = await openGate(agentToken, 'ship');
    expect(gate.separationOfDuties).toBe(true);
    const mine = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.admin,
      body: { option: 'approve' },
    });
    expect(mine.status).toBe(403);
    expect(mine.body.error.code).toBe('OWNER_APPROVAL');
    expect(mine.body.error.message).toContain('someone else');
    const other = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: tokens.techLead,
      body: { option: 'approve' },
    });
    expect(other.status).toBe(200);
  });

  it('names the owner a gate keeps from approving before anyone decides, and no one when a rule switches it off', async () => {
    const { agentToken } = await start();
    const { tokens, ids } = live.test;
    const view = async (gateId: string) =>
      (await live.client.call('GET', `/v1/gates/${gateId}`, { token: tokens.developer })).body;
    expect((await view((await openGate(agentToken, 'ship')).id)).separatedOwner).toBe(ids.adminId);
    expect((await view((await openGate(agentToken, 'wire_money')).id)).separatedOwner).toBe(ids.adminId);
    expect((await view((await openGate(agentToken, 'wire_small')).id)).separatedOwner).toBeNull();
  });

  it('lets the owner reject their own agent', async () => {
    const { agentToken } = await start();
    const gate = await openGate(agentToken, 'ship');
    const rejected = await live.client.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: live.test.tokens.admin,
      body: { option: 'reject', reason: 'not now' },
    });
    expect(rejected.status).toBe(200);
  });

  it('keeps the owner from approving a signed gate by default, and lets a rule switch that off', async () => {
    const { agentToken } = await start();
    const { tokens, ids } = live.test;
    const keys = await registerKey(tokens.admin, ids.adminId);
    const signedGate = await openGate(agentToken, 'wire_money');
    const fields = { gateId: signedGate.id, option: 'approve', payloadHash: signedGate.payloadHash };
    const signature = sign(null, Buffer.from(signedDecisionText(fields)), keys.privateKey).toString('base64');
    const mine = await live.client.call('POST', `/v1/gates/${signedGate.id}/decide`, {
      token: tokens.admin,
      body: { option: 'approve', signature },
    });
    expect(mine.status).toBe(403);
    expect(mine.body.error.code).toBe('OWNER_APPROVAL');

    const small = await openGate(agentToken, 'wire_small');
    const smallFields = { gateId: small.id, option: 'approve', payloadHash: small.payloadHash };
    const smallSignature = sign(null, Buffer.from(signedDecisionText(smallFields)), keys.privateKey).toString(
      'base64',
    );
    const allowed = await live.client.call('POST', `/v1/gates/${small.id}/decide`, {
      token: tokens.admin,
      body: { option: 'approve', signature: smallSignature },
    });
    expect(allowed.status).toBe(200);
  });
});
