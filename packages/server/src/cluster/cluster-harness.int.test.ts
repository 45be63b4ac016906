import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../testing/cluster.js';

describe('the cluster test harness', () => {
  let cluster: Cluster | null = null;
  afterEach(async () => {
    await cluster?.close();
    cluster = null;
  });

  it('runs three nodes on one database whose tokens work on every node, restarts a killed one in place and stops one gracefully', async () => {
    cluster = await startCluster({ nodes: 3 });
    const { tokens } = cluster;
    expect(new Set(cluster.nodes.map((node) => node.url)).size).toBe(3);

    // A gate opened on node 0 is seen by a person on each node; the agent is known everywhere.
    const opened = await cluster.client(0).call('POST', '/v1/gates', {
      token: tokens.agent,
      body: { tool: 'deploy', args: { to: 'staging' } },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const gateId: string = opened.body.gateId;
    for (const node of cluster.nodes) {
      const seen = await node.client.call('GET', `/v1/gates/${gateId}`, { token: tokens.admin });
      expect(seen.status).toBe(200);
      expect((await node.client.call('GET', '/readyz')).status).toBe(200);
    }

    const before = cluster.node(1);
    const url = before.url;
    const pid = before.process?.pid;
    await cluster.kill(1);
    expect(before.isRunning).toBe(false);
    await expect(before.client.call('GET', '/healthz')).rejects.toThrow();

    await cluster.restart(1);
    expect(before.url).toBe(url);
    expect(before.process?.pid).not.toBe(pid);
    const [reviewer] = await cluster.addPeople('reviewer', ['developer']);
    const decided = await before.client.call('POST', `/v1/gates/${gateId}/decide`, {
      token: reviewer?.token ?? '',
      body: { option: 'approve' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const stored = await cluster.postgres.store.read((tx) => tx.getGate(gateId));
    expect(stored?.status).toBe('approved');

    // A graceful stop exits 0; a request meant for it can go to the next node instead.
    expect(await cluster.stop(2)).toBe(0);
    const elsewhere = await cluster.callAnyNode(2, 'GET', `/v1/gates/${gateId}`, { token: tokens.admin });
    expect(elsewhere.body.gate.status).toBe('approved');
  }, 60_000);
});
