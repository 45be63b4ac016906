import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, type ClusterNode, startCluster } from '../testing/cluster.js';
import { approvePlanOverHttp } from '../testing/runs.js';
import { openEventStream, type TestEventStream } from '../testing/sse-client.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `since` until the stream ended, or null when it is still open after `withinMs`. */
async function endedWithin(stream: TestEventStream, since: number, withinMs: number): Promise<number | null> {
  const ended = await Promise.race([stream.ended.then(() => true), sleep(withinMs).then(() => false)]);
  return ended ? Date.now() - since : null;
}

describe('open streams across nodes', () => {
  let cluster: Cluster | null = null;
  const streams: TestEventStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await cluster?.close();
    cluster = null;
  });

  async function follow(url: string, headers: Record<string, string>): Promise<TestEventStream> {
    const stream = await openEventStream(url, headers);
    streams.push(stream);
    expect(stream.status, stream.body).toBe(200);
    return stream;
  }

  it('closes the streams of a revoked agent token and a disabled person on other nodes within a second', async () => {
    cluster = await startCluster({ nodes: 3 });
    const [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    const { admin } = cluster.tokens;
    // An agent of its own, so the cluster's agent keeps working for the bystander check.
    const created = await a.client.call('POST', '/v1/agents', { token: admin, body: { name: 'to-revoke' } });
    expect(created.status).toBe(201);
    const agentToken: string = created.body.token;
    const run = await b.client.call('POST', '/v1/runs', { token: agentToken, body: {} });
    expect(run.status).toBe(201);
    const [person, bystander] = await cluster.addPeople('inbox', ['developer', 'viewer']);
    if (person === undefined || bystander === undefined) throw new Error('people were not created');

    const agentStream = await follow(`${b.url}/v1/runs/${run.body.run.id}/events`, bearer(agentToken));
    const personStream = await follow(`${c.url}/v1/inbox/events`, bearer(person.token));
    const bystanderStream = await follow(`${c.url}/v1/inbox/events`, bearer(bystander.token));

    const revoked = await a.client.call('POST', `/v1/agents/${created.body.agent.id}/tokens/revoke`, {
      token: admin,
    });
    expect(revoked.status).toBe(200);
    expect(await endedWithin(agentStream, revoked.answeredAt, 2000)).toBeLessThan(1000);

    const disabled = await a.client.call('PATCH', `/v1/users/${person.id}`, {
      token: admin,
      body: { disabled: true },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(await endedWithin(personStream, disabled.answeredAt, 2000)).toBeLessThan(1000);

    expect(await endedWithin(bystanderStream, Date.now(), 200)).toBeNull();
    const opened = await a.client.call('POST', '/v1/gates', {
      token: cluster.tokens.agent,
      body: { tool: 'deploy', args: {}, timeoutSeconds: 3600 },
    });
    await bystanderStream.next((m) => m.event === 'gate.opened' && m.json.gateId === opened.body.gateId);
  }, 120_000);

  it('on SIGTERM ends streams and long-polls cleanly, waits for what is in flight up to its timeout, and exits; the agent resumes on another node', async () => {
    const timeoutMs = 2000;
    cluster = await startCluster({ nodes: 3, env: { GATEHOUSE_SHUTDOWN_TIMEOUT_MS: String(timeoutMs) } });
    const [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    const { agent } = cluster.tokens;
    const [reviewer] = await cluster.addPeople('reviewer', ['developer']);
    const run = await b.client.call('POST', '/v1/runs', { token: agent, body: {} });
    const runId: string = run.body.run.id;
    // Gate 0: the run's plan is approved before it asks to deploy.
    await approvePlanOverHttp(b.client, runId, { agent, person: reviewer?.token ?? '' });
    const stream = await follow(`${b.url}/v1/runs/${runId}/events`, bearer(agent));
    const opened = await b.client.call('POST', '/v1/gates', {
      token: agent,
      body: { tool: 'deploy', args: {}, runId, timeoutSeconds: 3600 },
    });
    const gateId: string = opened.body.gateId;
    const lastSeen = await stream.next((m) => m.event === 'gate.opened' && m.json.gateId === gateId);
    const waiting = b.client.call('GET', `/v1/gates/${gateId}/wait?timeoutMs=30000`, { token: agent });
    // A request whose body never finishes: the shutdown waits for it, then cuts it at the timeout.
    const stuck = connect(b.port, '127.0.0.1');
    stuck.on('error', () => undefined);
    await once(stuck, 'connect');
    const stuckClosed = once(stuck, 'close');
    stuck.write(
      `POST /v1/gates HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${agent}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool":',
    );
    await sleep(500);

    const stopping = Date.now();
    const stopped = cluster.stop(1);
    const longPoll = await waiting;
    expect(longPoll.status).toBe(200);
    expect(longPoll.body).toMatchObject({ outcome: null, gate: { id: gateId, status: 'pending' } });
    expect(await endedWithin(stream, stopping, 1000)).not.toBeNull();
    expect(await stopped).toBe(0);
    await stuckClosed;
    const took = Date.now() - stopping;
    expect(took).toBeGreaterThanOrEqual(timeoutMs - 100);
    expect(took).toBeLessThan(timeoutMs + 5000);

    const decided = await a.client.call('POST', `/v1/gates/${gateId}/decide`, {
      token: reviewer?.token ?? '',
      body: { option: 'approve' },
    });
    expect(decided.status).toBe(200);
    const resumed = await follow(`${c.url}/v1/runs/${runId}/events`, {
      ...bearer(agent),
      'last-event-id': String(lastSeen.id),
    });
    const decision = await resumed.next((m) => m.event === 'gate.decided' && m.json.gateId === gateId);
    expect(Number(decision.id)).toBeGreaterThan(Number(lastSeen.id));
    await expect(resumed.next((m) => m.event === 'gate.opened', 300)).rejects.toThrow(/no matching event/);
  }, 120_000);
});
