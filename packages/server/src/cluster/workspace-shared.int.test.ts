import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceResponse } from 'gatehouse-hitl-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, type ClusterNode, startCluster } from '../testing/cluster.js';
import { mustGit, tempDir } from '../testing/git-client.js';

/** Two nodes on one Postgres schema and one repositories folder, as docs/workspaces.md asks. */
describe('workspaces on two nodes sharing a repositories folder', () => {
  let cluster: Cluster;
  let a: ClusterNode;
  let b: ClusterNode;
  const repos = tempDir('gatehouse-shared-repos-');
  const work = tempDir();

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 2, env: { GATEHOUSE_REPOS_DIR: repos.path } });
    [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    repos.remove();
    work.remove();
  });

  async function newRun(): Promise<string> {
    const created = await a.client.call('POST', '/v1/runs', { token: cluster.tokens.agent, body: {} });
    expect(created.status).toBe(201);
    return (created.body as { run: { id: string } }).run.id;
  }

  function urlOn(node: ClusterNode, runId: string): string {
    return `${node.url}/v1/runs/${runId}/workspace.git`;
  }

  /** A clone through `node` with one new commit on `branch`. */
  async function commitOn(node: ClusterNode, runId: string, branch: string): Promise<string> {
    const token = cluster.tokens.agent;
    const dir = join(work.path, `${runId}-${branch}-${node.index}`);
    await mustGit(['clone', '--quiet', urlOn(node, runId), dir], { cwd: work.path, token });
    await mustGit(['checkout', '--quiet', '-b', branch], { cwd: dir });
    writeFileSync(join(dir, `${branch}.md`), `# ${branch}\n`);
    await mustGit(['add', '.'], { cwd: dir });
    await mustGit(['commit', '--quiet', '-m', branch], { cwd: dir });
    return dir;
  }

  async function branchesOn(node: ClusterNode, runId: string): Promise<Record<string, string>> {
    const answer = await node.client.call('GET', `/v1/runs/${runId}/workspace`, {
      token: cluster.tokens.admin,
    });
    expect(answer.status).toBe(200);
    const body = answer.body as WorkspaceResponse;
    return Object.fromEntries(body.branches.map((branch) => [branch.name, branch.head]));
  }

  it('creates one repository when both nodes reach for it at once', async () => {
    const runId = await newRun();
    const [onA, onB] = await Promise.all([branchesOn(a, runId), branchesOn(b, runId)]);
    expect(onA).toEqual(onB);
    expect(Object.keys(onA)).toEqual(['main']);
  });

  it('shows a push through one node on the other', async () => {
    const runId = await newRun();
    const dir = await commitOn(a, runId, 'phase-1-strategic');
    await mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], {
      cwd: dir,
      token: cluster.tokens.agent,
    });
    const head = await mustGit(['rev-parse', 'HEAD'], { cwd: dir });

    const clone = join(work.path, 'through-b');
    await mustGit(['clone', '--quiet', '--branch', 'phase-1-strategic', urlOn(b, runId), clone], {
      cwd: work.path,
      token: cluster.tokens.admin,
    });
    expect(await mustGit(['rev-parse', 'HEAD'], { cwd: clone })).toBe(head);
  });

  it('lands concurrent pushes of two branches through both nodes, each audited once', async () => {
    const runId = await newRun();
    const [first, second] = await Promise.all([
      commitOn(a, runId, 'phase-1-strategic'),
      commitOn(b, runId, 'phase-1-tactical'),
    ]);
    const token = cluster.tokens.agent;
    await Promise.all([
      mustGit(['push', '--quiet', 'origin', 'phase-1-strategic'], { cwd: first, token }),
      mustGit(['push', '--quiet', 'origin', 'phase-1-tactical'], { cwd: second, token }),
    ]);
    const heads = {
      'phase-1-strategic': await mustGit(['rev-parse', 'HEAD'], { cwd: first }),
      'phase-1-tactical': await mustGit(['rev-parse', 'HEAD'], { cwd: second }),
    };
    expect(await branchesOn(a, runId)).toMatchObject(heads);
    expect(await branchesOn(b, runId)).toMatchObject(heads);
    const audit = await cluster.postgres.store.queryAudit({ subject: runId, kind: 'workspace.pushed' });
    const pushed = audit.items.map((event) => (event.data.refs as Array<{ branch: string }>)[0]?.branch);
    expect(pushed.sort()).toEqual(['phase-1-strategic', 'phase-1-tactical']);
  });
});
