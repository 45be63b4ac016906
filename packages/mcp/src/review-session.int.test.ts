import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Gatehouse, type Workspace } from 'gatehouse-hitl-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatehouseMcpServer } from './server.js';
import {
  callTool,
  createRun,
  GATEHOUSE_BIN,
  type Json,
  type LiveServer,
  startLiveServer,
  textOf,
} from './testing/harness.js';
import { REVIEW_TOOLS } from './tools-review.js';

const PLAN_1 = '# Plan\nStep one: read the data\nStep two: clean it\nStep three: report\n';
const PLAN_2 =
  '# Plan\nStep one: read the data from data/input.csv\nStep two: clean it (drop empty rows)\nStep three: report\n';

/** A local OpenAI-compatible `/v1/embeddings` stand-in: a bag of hashed words per text. */
async function startEmbeddings(): Promise<{ url: string; close(): Promise<void> }> {
  const vector = (text: string) => {
    const out = new Array<number>(32).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
      const slot = [...word].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 32, 7);
      out[slot] = (out[slot] ?? 0) + 1;
    }
    return out;
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input.map((text, index) => ({ index, embedding: vector(text) }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Calls a search tool until the freeze's index answers with hits (it is built in the background). */
async function searchUntilFound(client: Client, name: string, query: string): Promise<Json> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await ok(client, name, { query });
    if (answer.items.length > 0) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} found nothing for ${query}`);
}

/** An MCP client connected in memory to a Gatehouse MCP server built with `options`. */
async function mcpClient(options: Parameters<typeof createGatehouseMcpServer>[0]): Promise<Client> {
  const server = createGatehouseMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'review-flow-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const result = await callTool(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent;
}

describe('a review through the review session’s MCP tools', () => {
  let server: LiveServer;
  let dir: string;
  let runId: string;
  let agent: Gatehouse;
  let ws: Workspace;
  let agentTools: Client;
  let person: Client;
  let embeddings: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    embeddings = await startEmbeddings();
    server = await startLiveServer({ embeddings: { url: embeddings.url, model: 'stand-in', apiKey: null } });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-review-mcp-'));
    runId = await createRun(server, { title: 'review flow', autonomy: 'guided' });
    agent = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
    ws = await agent.workspace(runId).clone(join(dir, 'agent'));
    const options = { url: server.url, runId };
    agentTools = await mcpClient({ ...options, token: server.test.tokens.agent });
    person = await mcpClient({ ...options, token: server.test.tokens.developer, review: true });
  }, 60_000);

  afterAll(async () => {
    await agentTools?.close();
    await person?.close();
    await server?.close();
    await embeddings?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The agent writes the phase's files, pushes its branch and checkpoints it; returns the review id. */
  async function agentPushes(revision: number, plan: string): Promise<string> {
    const { branch } = await ws.startPhaseBranch({ phase: 1, type: 'strategic', revision });
    writeFileSync(join(ws.dir, 'plan.md'), plan);
    writeFileSync(join(ws.dir, 'notes.md'), `Notes, revision ${revision}\n`);
    await ws.commitAll(`plan: revision ${revision}`);
    await ws.push();
    const boundary = await agent.checkpoint({
      runId,
      phase: 1,
      type: 'strategic',
      branch,
      retrospective: 'Phase 1: the plan, reviewed twice',
      wait: false,
    });
    expect(boundary.freeze).toBe(true);
    expect(boundary.review?.branch).toBe(branch);
    return boundary.review?.id as string;
  }

  it('runs the whole review: comments, changes requested, the agent’s revision, an edit, approve & merge', async () => {
    await ok(agentTools, 'gatehouse_journal_append', {
      entries: [
        { kind: 'chat', data: { role: 'user', content: 'Write the plan' } },
        { kind: 'todos', data: { items: [{ text: 'write plan.md', status: 'completed' }] } },
        { kind: 'llm_request', data: { model: 'test-model', usage: { inputTokens: 12, outputTokens: 34 } } },
      ],
    });
    const reviewId = await agentPushes(1, PLAN_1);

    const status = await ok(person, 'git_status');
    expect(status.openReview.id).toBe(reviewId);
    expect(status.branches.map((branch: Json) => branch.name)).toContain('phase-1-strategic');
    const review = await ok(person, 'get_review');
    expect(review.files.map((file: Json) => [file.path, file.added])).toEqual(
      expect.arrayContaining([
        ['plan.md', 4],
        ['notes.md', 1],
      ]),
    );
    const diff = await callTool(person, 'git_diff', { path: 'plan.md' });
    expect(textOf(diff)).toContain('    3 +Step two: clean it');
    const file = await ok(person, 'read_workspace_file', { path: 'plan.md' });
    expect(file.file.text).toBe(PLAN_1);

    const text = await searchUntilFound(person, 'search_workspace', 'clean');
    expect(text.mode).toBe('text');
    expect(text.items[0]).toMatchObject({ path: 'plan.md', source: 'file' });
    const meaning = await searchUntilFound(person, 'vector_search', 'read the data');
    expect(meaning.mode).toBe('semantic');
    expect(meaning.items.map((hit: Json) => hit.path)).toContain('plan.md');

    const nowhere = await callTool(person, 'add_review_comment', {
      path: 'plan.md',
      line: 99,
      body: 'Here?',
    });
    expect(nowhere.isError).toBe(true);
    expect(textOf(nowhere)).toMatch(/^error VALIDATION_FAILED: .*no line 99/);
    const first = await ok(person, 'add_review_comment', { path: 'plan.md', line: 2, body: 'Which data?' });
    await ok(person, 'add_review_comment', { path: 'plan.md', line: 3, body: 'Clean how?' });
    await ok(person, 'add_review_comment', { replyTo: first.comment.id, body: 'Name the file, please.' });
    const gateId = review.review.gateId as string;
    const asked = await server.decide(gateId, {
      option: 'request_changes',
      feedback: 'Answer the line comments',
    });
    expect(asked.status).toBe(200);

    const feedback = await ws.reviewFeedback();
    expect(feedback?.comments.filter((c) => c.line !== null).map((c) => [c.line, c.body])).toEqual([
      [2, 'Which data?'],
      [3, 'Clean how?'],
    ]);
    expect(await agentPushes(2, PLAN_2)).toBe(reviewId);

    const revised = await ok(person, 'get_review');
    expect(revised.review).toMatchObject({ branch: 'phase-1-strategic-rev-2', revision: 2, status: 'open' });
    const twice = await callTool(person, 'edit_file', {
      path: 'plan.md',
      oldText: 'Step',
      newText: 'Phase step',
    });
    expect(twice.isError).toBe(true);
    expect(textOf(twice)).toContain('oldText occurs 3 times in plan.md');
    const edited = await ok(person, 'edit_file', {
      path: 'plan.md',
      oldText: 'Step three: report',
      newText: 'Step three: report to the team',
      message: 'plan: who gets the report',
    });
    const log = await ok(person, 'git_log', { limit: 2 });
    expect(log.commits[0]).toMatchObject({ commit: edited.commit, subject: 'plan: who gets the report' });
    expect(log.commits[1].subject).toBe('plan: revision 2');
    expect(log.commits[0].authorName).not.toBe(log.commits[1].authorName);

    const approved = await server.decide(revised.review.gateId, { option: 'approve' });
    expect(approved.status).toBe(200);
    const after = await ok(person, 'git_status');
    expect(after.branches.map((branch: Json) => branch.name)).toEqual(['main']);
    expect(after.openReview).toBeNull();
    const history = await ok(person, 'git_log', { ref: 'main' });
    expect(history.commits).toHaveLength(2);
    expect(history.commits[0].subject).toContain('Phase 1: the plan, reviewed twice');
    const merged = await ok(person, 'read_workspace_file', { path: 'plan.md', ref: 'main' });
    expect(merged.file.text).toBe(PLAN_2.replace('Step three: report', 'Step three: report to the team'));
    await ws.checkoutMain();
    expect(readFileSync(join(ws.dir, 'plan.md'), 'utf8')).toBe(merged.file.text);
  }, 120_000);

  it('shows the run, its journal and its audit trail to the reviewer', async () => {
    const job = await ok(person, 'get_run');
    expect(job.run).toMatchObject({ id: runId, autonomy: 'guided' });
    expect(job.reviews[0]).toMatchObject({ status: 'merged', revision: 2 });
    const chat = await ok(person, 'get_chat_history');
    expect(chat.items.map((entry: Json) => entry.data.content)).toEqual(['Write the plan']);
    const todos = await ok(person, 'get_todos');
    expect(todos.items[0].data.items[0]).toEqual({ text: 'write plan.md', status: 'completed' });
    const requests = await ok(person, 'get_llm_request');
    const one = await ok(person, 'get_llm_request', { entryId: requests.items[0].id });
    expect(one.items[0].data).toMatchObject({ model: 'test-model', usage: { outputTokens: 34 } });

    const trail = await ok(person, 'get_audit_trail');
    const kinds = trail.items.map((event: Json) => event.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'workspace.pushed',
        'review.opened',
        'review.comment',
        'gate.decided',
        'review.file_edited',
        'review.merged',
        'run.journal_appended',
      ]),
    );
    expect(trail.complete).toBe(true);
    const found = await ok(person, 'search_audit', { query: 'request_changes' });
    expect(found.items.length).toBeGreaterThan(0);
    for (const event of found.items) expect(JSON.stringify(event).toLowerCase()).toContain('request_changes');
  });

  it('refuses a review of another run', async () => {
    const other = await createRun(server, { title: 'another run', autonomy: 'guided' });
    const reviews = await server.call(server.test.tokens.developer, 'GET', `/v1/runs/${runId}/reviews`);
    const reviewId = reviews.body.items[0].id as string;
    const foreign = await mcpClient({
      url: server.url,
      runId: other,
      token: server.test.tokens.developer,
      review: true,
    });
    const refused = await callTool(foreign, 'get_review', { reviewId });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`review ${reviewId} belongs to another run`);
    await foreign.close();
  });

  it('serves the same session over stdio with `gatehouse review mcp --run`', async () => {
    const config = mkdtempSync(join(tmpdir(), 'gatehouse-review-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        GATEHOUSE_BIN,
        'review',
        'mcp',
        '--run',
        runId,
        '--url',
        server.url,
        '--token',
        server.test.tokens.developer,
      ],
      env: { ...getDefaultEnvironment(), XDG_CONFIG_HOME: config },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'review-stdio-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...REVIEW_TOOLS].sort());
      const job = await ok(client, 'get_run');
      expect(job.run.id).toBe(runId);
    } finally {
      await client.close();
      rmSync(config, { recursive: true, force: true });
    }
  }, 60_000);
});
