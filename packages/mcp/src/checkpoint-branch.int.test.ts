import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatehouseMcpServer } from './server.js';
import { callTool, createRun, type LiveServer, startLiveServer } from './testing/harness.js';

describe('gatehouse_checkpoint with a pushed phase branch', () => {
  let server: LiveServer;
  let dir: string;

  beforeAll(async () => {
    server = await startLiveServer();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-mcp-branch-'));
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The agent pushes `plan.md` on phase 1's branch through the SDK's git helpers. */
  async function pushPhaseOne(runId: string, name: string): Promise<string> {
    const agent = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
    const ws = await agent.workspace(runId).clone(join(dir, name));
    const { branch } = await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
    writeFileSync(join(ws.dir, 'plan.md'), '# Plan\nread\nclean\nreport\n');
    await ws.commitAll('plan');
    await ws.push();
    return branch;
  }

  async function agentTools(runId: string): Promise<Client> {
    const mcp = createGatehouseMcpServer({ url: server.url, token: server.test.tokens.agent, runId });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'checkpoint-branch-test', version: '1.0.0' });
    await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
    return client;
  }

  it('hands the agent the review’s comments and the branch to answer on when changes are requested', async () => {
    const runId = await createRun(server, { autonomy: 'guided' });
    const branch = await pushPhaseOne(runId, 'guided');
    const client = await agentTools(runId);
    const waiting = callTool(client, 'gatehouse_checkpoint', {
      phase: 1,
      type: 'strategic',
      branch,
      retrospective: 'Planned the work',
      waitSeconds: 20,
    });
    const developer = server.test.tokens.developer;
    let reviews = await server.call(developer, 'GET', `/v1/runs/${runId}/reviews`);
    for (let tries = 0; reviews.body.items.length === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reviews = await server.call(developer, 'GET', `/v1/runs/${runId}/reviews`);
    }
    const review = reviews.body.items[0];
    const comment = await server.call(developer, 'POST', `/v1/reviews/${review.id}/comments`, {
      body: 'Which data?',
      path: 'plan.md',
      line: 2,
    });
    expect(comment.status).toBe(201);
    const decided = await server.call(developer, 'POST', `/v1/gates/${review.gateId}/decide`, {
      option: 'request_changes',
      feedback: 'Name the input file',
    });
    expect(decided.status).toBe(200);
    const result = await waiting;
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent;
    expect(output.reviewId).toBe(review.id);
    expect(output.merged).toBe(false);
    expect(output.feedback.nextBranch).toBe('phase-1-strategic-rev-2');
    expect(output.feedback.comments).toEqual([
      expect.objectContaining({ path: 'plan.md', line: 2, body: 'Which data?', resolved: false }),
    ]);
    expect(output.next).toContain('phase-1-strategic-rev-2');
    await client.close();
  });

  it('reports a branch merged at once when the autonomy level needs no approval', async () => {
    const created = await server.call(server.test.tokens.techLead, 'POST', '/v1/runs', {
      agentId: server.test.ids.agentId,
      autonomy: 'full',
    });
    expect(created.status).toBe(201);
    const runId = created.body.run.id as string;
    const branch = await pushPhaseOne(runId, 'full');
    const client = await agentTools(runId);
    const result = await callTool(client, 'gatehouse_checkpoint', { phase: 1, type: 'strategic', branch });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ freeze: false, merged: true, feedback: null });
    expect(result.structuredContent.reviewId).toMatch(/^rev_/);
    await client.close();
  });

  it('refuses a branch that is not a phase branch before sending anything', async () => {
    const runId = await createRun(server, { autonomy: 'guided' });
    const client = await agentTools(runId);
    const result = await callTool(client, 'gatehouse_checkpoint', {
      phase: 1,
      type: 'strategic',
      branch: 'main',
    });
    expect(result.isError).toBe(true);
    const runs = await server.call(server.test.tokens.developer, 'GET', `/v1/runs/${runId}/reviews`);
    expect(runs.body.items).toEqual([]);
    await client.close();
  });
});
