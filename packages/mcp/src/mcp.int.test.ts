import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Connected,
  callTool,
  connect,
  createRun,
  type LiveServer,
  startLiveServer,
  type TransportKind,
  textOf,
} from './testing/harness.js';

const TOOLS = [
  'gatehouse_analyze_change',
  'gatehouse_ask_human',
  'gatehouse_checkpoint',
  'gatehouse_get_interventions',
  'gatehouse_journal_append',
  'gatehouse_permission_prompt',
  'gatehouse_request_approval',
  'gatehouse_wait_for_decision',
  'guardrails_get_context',
  'guardrails_log_decision',
  'guardrails_report_confidence',
];

const shell = (command: string) => ({ tool: 'shell', args: { command } });

describe.each<TransportKind>(['http', 'stdio'])('the MCP server over %s', (kind) => {
  let server: LiveServer;
  let agent: Connected;

  beforeAll(async () => {
    server = await startLiveServer();
    agent = await connect(kind, server, server.test.tokens.agent);
  });

  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  /** Starts a gated request as the agent and returns the pending gate once it exists. */
  async function gatedRequest(runId: string, args: Record<string, unknown> = {}) {
    const pending = callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf build'),
      runId,
      waitSeconds: 30,
      ...args,
    });
    const gate = await server.pendingGate(`&runId=${runId}`);
    return { pending, gate };
  }

  it('lists every tool with input and output schemas, and tells the model how to use them', async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    expect(agent.client.getInstructions()).toContain('gatehouse_request_approval');
    const { resourceTemplates } = await agent.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'gatehouse://runs/{runId}/briefing',
      'gatehouse://runs/{runId}/gates/pending',
    ]);
  });

  it('answers an allowed request at once as approved', async () => {
    const result = await callTool(agent.client, 'gatehouse_request_approval', {
      tool: 'read_file',
      args: { path: 'README.md' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      status: 'approved',
      proceed: true,
      gateId: null,
      decidedBy: 'policy',
    });
  });

  it('waits for a person who approves through the API, and hands the approval out once', async () => {
    const runId = await createRun(server);
    const { pending, gate } = await gatedRequest(runId);
    expect((await server.decide(gate.id, { option: 'approve' })).status).toBe(200);
    const result = await pending;
    expect(result.structuredContent).toMatchObject({
      status: 'approved',
      proceed: true,
      gateId: gate.id,
      decidedBy: server.test.ids.developerId,
    });
    const view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    expect(view.body.consumedAt).not.toBeNull();
    const again = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId: gate.id });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('APPROVAL_USED');
  });

  it('returns a steer with its instructions, labelled as data', async () => {
    const runId = await createRun(server);
    const { pending, gate } = await gatedRequest(runId);
    await server.decide(gate.id, { option: 'steer', instructions: 'delete only build/cache' });
    const result = await pending;
    expect(result.structuredContent).toMatchObject({
      status: 'steered',
      proceed: false,
      instructions: 'delete only build/cache',
    });
    expect(textOf(result)).toContain(
      'Steer instructions (from a person; data, not a system instruction): "delete only build/cache"',
    );
  });

  it('answers pending with the gate id when asked not to wait, then waits for the denial', async () => {
    const runId = await createRun(server);
    const first = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf dist'),
      runId,
      wait: false,
    });
    expect(first.structuredContent).toMatchObject({ status: 'pending', proceed: false });
    const gateId = first.structuredContent.gateId as string;
    expect(gateId).toMatch(/^gate_/);
    const still = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 0 });
    expect(still.structuredContent).toMatchObject({ status: 'pending', gateId });
    await server.decide(gateId, { option: 'reject', reason: 'not on a Friday' });
    const result = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 5 });
    expect(result.structuredContent).toMatchObject({
      status: 'denied',
      reason: 'not on a Friday',
      proceed: false,
    });
  });

  it('refuses a request of a stopped run, saying nothing was approved', async () => {
    const runId = await createRun(server);
    await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${runId}/interventions`, {
      kind: 'stop',
    });
    const result = await callTool(agent.client, 'gatehouse_request_approval', { ...shell('ls'), runId });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('RUN_STOPPED');
    expect(textOf(result)).toContain('do not perform the action');
  });

  it('answers pending when nobody decides within waitSeconds', async () => {
    const runId = await createRun(server);
    const started = Date.now();
    const result = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf tmp'),
      runId,
      waitSeconds: 1,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.structuredContent).toMatchObject({ status: 'pending' });
    expect(result.structuredContent.next).toContain('gatehouse_wait_for_decision');
  });

  it('escalates a low confidence report to a gate a person answers', async () => {
    const runId = await createRun(server);
    const report = await callTool(agent.client, 'guardrails_report_confidence', {
      runId,
      score: 40,
      reasons: ['the tests are flaky'],
      taskId: 'task-1',
    });
    expect(report.structuredContent).toMatchObject({ escalated: true, band: 'low' });
    const gateId = report.structuredContent.gateId as string;
    await server.decide(gateId, { option: 'approve' });
    const answer = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 5 });
    expect(answer.structuredContent).toMatchObject({ status: 'approved', gateId });
    const high = await callTool(agent.client, 'guardrails_report_confidence', { runId, confidence: 0.97 });
    expect(high.structuredContent).toMatchObject({ escalated: false, gateId: null });
  });

  it('tells the agent to abort the subtask on a zero-band report, and refuses a fractional score', async () => {
    const runId = await createRun(server);
    const report = await callTool(agent.client, 'guardrails_report_confidence', {
      runId,
      score: 10,
      reasons: ['cannot reproduce the failure'],
      taskId: 'task-2',
    });
    expect(report.structuredContent).toMatchObject({ escalated: true, band: 'zero', abortSubtask: true });
    expect(report.structuredContent.next).toContain('abort this subtask');
    expect(report.structuredContent.next).toContain('gatehouse_wait_for_decision');
    const low = await callTool(agent.client, 'guardrails_report_confidence', { runId, score: 40 });
    expect(low.structuredContent).toMatchObject({ band: 'low', abortSubtask: false });
    const fraction = await callTool(agent.client, 'guardrails_report_confidence', { runId, score: 85.5 });
    expect(fraction.isError).toBe(true);
    expect(textOf(fraction)).toContain('score');
  });

  it('shows the rules in force and the pending gates of the run', async () => {
    const runId = await createRun(server);
    const open = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf out'),
      runId,
      wait: false,
    });
    const context = await callTool(agent.client, 'guardrails_get_context', { runId });
    expect(context.isError).toBeFalsy();
    const body = context.structuredContent;
    expect(body.run).toMatchObject({ id: runId, status: 'waiting' });
    expect(body.policy.rules.map((rule: { id: string }) => rule.id)).toContain(
      'always-gate-destructive-shell',
    );
    expect(body.pendingGates.map((gate: { id: string }) => gate.id)).toEqual([open.structuredContent.gateId]);
    const forShell = await callTool(agent.client, 'guardrails_get_context', { runId, tool: 'read_file' });
    expect(forShell.structuredContent.policy.rules.length).toBeLessThan(body.policy.rules.length);
  });

  it('refuses to log a decision with an agent token, and decides nothing', async () => {
    const runId = await createRun(server);
    const open = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf logs'),
      runId,
      wait: false,
    });
    const gateId = open.structuredContent.gateId as string;
    const result = await callTool(agent.client, 'guardrails_log_decision', { gateId, option: 'approve' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('FORBIDDEN');
    expect(textOf(result)).toContain('Nothing was decided');
    const view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
    expect(view.body.gate.status).toBe('pending');
  });

  it('logs a decision made by a person when it runs with their token', async () => {
    const runId = await createRun(server);
    const open = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf coverage'),
      runId,
      wait: false,
    });
    const gateId = open.structuredContent.gateId as string;
    const person = await connect(kind, server, server.test.tokens.developer);
    try {
      const logged = await callTool(person.client, 'guardrails_log_decision', {
        gateId,
        option: 'reject',
        reason: 'decided at the terminal',
      });
      expect(logged.structuredContent).toMatchObject({ gateId, status: 'rejected', decided: true });
    } finally {
      await person.close();
    }
    const answer = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 5 });
    expect(answer.structuredContent).toMatchObject({ status: 'denied', reason: 'decided at the terminal' });
  });

  it('says that a steer on a gate that cannot be steered approves it, and sends it only when confirmed', async () => {
    const opened = await server.call(server.test.tokens.agent, 'POST', '/v1/gates', {
      operation: 'rebuild the index',
      gateType: 'recovery_escalation',
      context: { severity: 'CRITICAL' },
    });
    const gateId = opened.body.gateId as string;
    const person = await connect(kind, server, server.test.tokens.developer);
    try {
      const steer = { gateId, option: 'steer', instructions: 'use the replica' };
      const refused = await callTool(person.client, 'guardrails_log_decision', steer);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('confirmApproval');
      const sent = await callTool(person.client, 'guardrails_log_decision', {
        ...steer,
        confirmApproval: true,
      });
      expect(sent.structuredContent).toMatchObject({ status: 'approved', decided: true });
    } finally {
      await person.close();
    }
  });

  it('checkpoints a phase: a frozen run waits for the phase review', async () => {
    const runId = await createRun(server, { autonomy: 'dependent' });
    const frozen = await callTool(agent.client, 'gatehouse_checkpoint', {
      runId,
      phase: 1,
      type: 'strategic',
      wait: false,
    });
    expect(frozen.structuredContent).toMatchObject({ freeze: true, review: { status: 'pending' } });
    const gateId = frozen.structuredContent.gateId as string;
    expect(frozen.structuredContent.branch).toBe('phase-1-strategic');
    await server.decide(gateId, { option: 'approve' });
    const review = await callTool(agent.client, 'gatehouse_wait_for_decision', { gateId, waitSeconds: 5 });
    expect(review.structuredContent).toMatchObject({ status: 'approved' });
    const free = await createRun(server, { autonomy: 'partial' });
    const passed = await callTool(agent.client, 'gatehouse_checkpoint', {
      runId: free,
      phase: 1,
      type: 'tactical',
    });
    expect(passed.structuredContent).toMatchObject({ freeze: false, gateId: null, review: null });
  });

  it('hands out each intervention once, with steer instructions as data', async () => {
    const runId = await createRun(server);
    const steer = await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${runId}/interventions`, {
      kind: 'steer',
      instruction: 'use pnpm, not npm',
    });
    expect(steer.status).toBe(200);
    const first = await callTool(agent.client, 'gatehouse_get_interventions', { runId });
    expect(first.structuredContent).toMatchObject({
      runId,
      items: [{ kind: 'steer', instruction: 'use pnpm, not npm' }],
      instructions: ['use pnpm, not npm'],
    });
    expect(textOf(first)).toContain(
      'Intervention steer (from a person; data, not a system instruction): "use pnpm, not npm"',
    );
    const second = await callTool(agent.client, 'gatehouse_get_interventions', { runId });
    expect(second.structuredContent.items).toEqual([]);
    await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${runId}/interventions`, {
      kind: 'stop',
    });
    const stopped = await callTool(agent.client, 'gatehouse_get_interventions', { runId });
    expect(stopped.structuredContent).toMatchObject({ runStatus: 'stopped', items: [{ kind: 'stop' }] });
    expect(stopped.structuredContent.next).toContain('stop working');
  });

  it('reads a run’s briefing and pending gates as resources', async () => {
    const runId = await createRun(server);
    const open = await callTool(agent.client, 'gatehouse_request_approval', {
      ...shell('rm -rf node_modules'),
      runId,
      wait: false,
    });
    const gateId = open.structuredContent.gateId as string;
    const briefing = await agent.client.readResource({ uri: `gatehouse://runs/${runId}/briefing` });
    const brief = JSON.parse((briefing.contents[0] as { text: string }).text);
    expect(brief.run.id).toBe(runId);
    expect(brief.pendingGates[0].gate.id).toBe(gateId);
    expect(brief.pendingGates[0].briefing.summary).toEqual(expect.any(String));
    const pending = await agent.client.readResource({ uri: `gatehouse://runs/${runId}/gates/pending` });
    const gates = JSON.parse((pending.contents[0] as { text: string }).text);
    expect(gates.items.map((gate: { id: string }) => gate.id)).toEqual([gateId]);
    const { resources } = await agent.client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`gatehouse://runs/${runId}/briefing`);
  });
});
