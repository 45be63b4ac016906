import type { CredentialRecord } from 'gatehouse-hitl-store';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListeningApp, startListeningApp } from '../../testing/listening-app.js';
import { openEventStream, type TestEventStream } from '../../testing/sse-client.js';
import { isStillValid, type StreamCredential } from './stream-credentials.js';

const agent: StreamCredential['principal'] = { kind: 'agent', id: 'agent_a' };
const person: StreamCredential['principal'] = { kind: 'user', id: 'user_a', name: 'a', role: 'developer' };
const token = { tokenHash: 'h', createdAt: 1, expiresAt: null, revokedAt: null };
const user = {
  id: 'user_a',
  name: 'a',
  role: 'developer' as const,
  passwordHash: null,
  disabled: false,
  createdAt: 1,
};
const agentRecord: CredentialRecord = {
  token: { ...token, kind: 'agent', subjectId: 'agent_a' },
  user: null,
};
const sessionRecord: CredentialRecord = { token: { ...token, kind: 'session', subjectId: 'user_a' }, user };

describe('whether an open stream may stay open', () => {
  it.each([
    ['an unchanged agent token', true, agentRecord, agent],
    ['an unchanged session', true, sessionRecord, person],
    ['a token that is gone', false, undefined, agent],
    ['a revoked token', false, { ...agentRecord, token: { ...agentRecord.token, revokedAt: 5 } }, agent],
    [
      'an expired session',
      false,
      { ...sessionRecord, token: { ...sessionRecord.token, expiresAt: 100 } },
      person,
    ],
    ['a disabled person', false, { ...sessionRecord, user: { ...user, disabled: true } }, person],
    ['a changed role', false, { ...sessionRecord, user: { ...user, role: 'viewer' as const } }, person],
    ['a person who is gone', false, { ...sessionRecord, user: null }, person],
    [
      'a token of another agent',
      false,
      { ...agentRecord, token: { ...agentRecord.token, subjectId: 'agent_b' } },
      agent,
    ],
  ] as const)('%s: stays open %s', (_name, expected, record, principal) => {
    expect(isStillValid(record, principal, 100)).toBe(expected);
  });
});

describe('open streams on one node', () => {
  let node: ListeningApp<{ now(): number }> | null = null;
  const streams: TestEventStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await node?.close();
    node = null;
  });

  async function endedWithin(stream: TestEventStream, ms: number): Promise<boolean> {
    return Promise.race([
      stream.ended.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);
  }

  it("ends a revoked agent's run stream and a demoted person's inbox stream, and keeps the others", async () => {
    node = await startListeningApp({ dialect: 'sqlite', config: { streamRecheckMs: 100 } });
    const { tokens, ids } = node.test;
    const run = await node.client.call('POST', '/v1/runs', { token: tokens.agent, body: {} });
    const follow = async (path: string, bearer: string) => {
      const stream = await openEventStream(`${node?.url}${path}`, { authorization: `Bearer ${bearer}` });
      streams.push(stream);
      expect(stream.status).toBe(200);
      return stream;
    };
    const agentStream = await follow(`/v1/runs/${run.body.run.id}/events`, tokens.agent);
    const leadStream = await follow('/v1/inbox/events', tokens.techLead);
    const viewerStream = await follow('/v1/inbox/events', tokens.viewer);

    const revoked = await node.client.call('POST', `/v1/agents/${ids.agentId}/tokens/revoke`, {
      token: tokens.admin,
    });
    expect(revoked.status).toBe(200);
    expect(await endedWithin(agentStream, 1000)).toBe(true);
    const demoted = await node.client.call('PATCH', `/v1/users/${ids.techLeadId}`, {
      token: tokens.admin,
      body: { role: 'developer' },
    });
    expect(demoted.status).toBe(200);
    expect(await endedWithin(leadStream, 1000)).toBe(true);
    expect(await endedWithin(viewerStream, 300)).toBe(false);
  });
});
