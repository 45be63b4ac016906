import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../testing/cluster.js';

const DENY_DEPLOYS = `name: no-deploys
defaultAction: gate
rules:
  - id: no-deploys
    priority: 900
    match: { tools: [deploy] }
    action: deny
    reason: Nobody deploys this week.
`;

describe('a policy stored through one node', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('takes effect on every other node within a poll interval, with nobody reading it there', async () => {
    cluster = await startCluster({ nodes: 2, env: { GATEHOUSE_EVENTS_POLL_MS: '200' } });
    const { tokens } = cluster;
    const deploy = { tool: 'deploy', args: { env: 'production' } };
    const before = await cluster
      .node(1)
      .client.call('POST', '/v1/gates', { token: tokens.agent, body: deploy });
    expect(before.body.outcome).toBe('gated');
    const stored = await cluster
      .node(0)
      .client.call('PUT', '/v1/policy', { token: tokens.admin, body: { source: DENY_DEPLOYS } });
    expect(stored.status).toBe(200);
    let outcome = 'gated';
    for (let i = 0; i < 50 && outcome !== 'denied'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await cluster
        .node(1)
        .client.call('POST', '/v1/gates', { token: tokens.agent, body: deploy });
      outcome = answer.body.outcome;
    }
    expect(outcome).toBe('denied');
  });
});
