import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { approveTestPlan, createTestApp, refusedPort, type TestApp } from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/cli-process.js';
import { type HookRun, preToolUse, runHook } from '../testing/hook-process.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
type Json = any;

const RM_BUILD = { command: 'rm -rf build', description: 'Remove the build directory' };
const GATE_ID = /gate_[A-Za-z0-9_]+/;

describe('gatehouse hook claude-code against a real server', () => {
  let test: TestApp<{ now(): number }>;
  let url: string;
  let state: { dir: string; remove(): void };
  let runId: string;

  async function call(token: string, method: string, path: string, body?: unknown): Promise<Json> {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return text === '' ? null : JSON.parse(text);
  }

  function hook(input: unknown, options: { env?: Record<string, string>; args?: string[] } = {}) {
    return runHook(input, {
      env: {
        GATEHOUSE_URL: url,
        GATEHOUSE_TOKEN: test.tokens.agent,
        GATEHOUSE_RUN_ID: runId,
        XDG_STATE_HOME: state.dir,
        ...options.env,
      },
      args: options.args ?? [],
    });
  }

  function decide(gateId: string, decision: Record<string, unknown>) {
    return call(test.tokens.developer, 'POST', `/v1/gates/${gateId}/decide`, decision);
  }

  function gateIdOf(run: HookRun): string {
    const id = GATE_ID.exec(run.decision?.permissionDecisionReason ?? '')?.[0];
    if (id === undefined) throw new Error(`no gate id in ${run.stdout}`);
    return id;
  }

  async function pendingGateOf(command: string): Promise<Json> {
    for (let i = 0; i < 400; i++) {
      const { items } = await call(test.tokens.developer, 'GET', `/v1/gates?status=pending&runId=${runId}`);
      const gate = items.find((item: Json) => item.action?.args?.command === command);
      if (gate !== undefined) return gate;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no pending gate for ${command}`);
  }

  beforeAll(async () => {
    test = await createTestApp({ dialect: 'sqlite' });
    url = await test.app.listen({ host: '127.0.0.1', port: 0 });
    state = tempDir('gatehouse-hook-state-');
    runId = (await call(test.tokens.agent, 'POST', '/v1/runs', { title: 'Claude Code session' })).run.id;
    // Gate 0: the run implements nothing before its plan is approved.
    await approveTestPlan(test, runId);
  });

  afterAll(async () => {
    await test?.close();
    state?.remove();
  });

  it('allows a Read at once with the rule that allowed it', async () => {
    const run = await hook(preToolUse('Read', { file_path: '/home/dev/shop/src/index.ts' }));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.decision).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringContaining('Read allowed by rule core-file-reads'),
    });
    expect(run.elapsedMs).toBeLessThan(5000);
  });

  it('denies a destructive Bash call as pending with its gate id, then the identical retry gets the approval once', async () => {
    const input = preToolUse('Bash', RM_BUILD);
    const first = await hook(input, { args: ['--budget-ms', '1500'] });
    expect(first.code).toBe(0);
    expect(first.decision?.permissionDecision).toBe('deny');
    expect(first.decision?.permissionDecisionReason).toMatch(/Approval is pending \(gate gate_/);
    expect(first.decision?.permissionDecisionReason).toContain('Retry exactly the same call later');
    expect(first.systemMessage).toContain('waits for approval');
    expect(first.elapsedMs).toBeLessThan(1500 + 1000);
    const gateId = gateIdOf(first);

    const { gate } = await call(test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
    expect(gate).toMatchObject({
      status: 'pending',
      runId,
      action: { tool: 'Bash', args: RM_BUILD },
      context: { session_id: input.session_id, cwd: '/home/dev/shop', tool_use_id: input.tool_use_id },
    });

    const stillPending = await hook(
      { ...input, tool_use_id: 'toolu_01retry1' },
      { args: ['--budget-ms', '1000'] },
    );
    expect(gateIdOf(stillPending)).toBe(gateId);

    await decide(gateId, { option: 'approve', reason: 'build output only' });
    const retry = await hook({ ...input, tool_use_id: 'toolu_01retry2' });
    expect(retry.decision?.permissionDecision).toBe('allow');
    expect(retry.decision?.permissionDecisionReason).toContain(
      `approved by user_dev (gate ${gateId}): build output only`,
    );
    expect((await call(test.tokens.developer, 'GET', `/v1/gates/${gateId}`)).consumedAt).not.toBeNull();

    // The approval was for one run of the command: the next identical call asks a person again.
    const again = await hook({ ...input, tool_use_id: 'toolu_01again' }, { args: ['--budget-ms', '1000'] });
    expect(again.decision?.permissionDecision).toBe('deny');
    expect(gateIdOf(again)).not.toBe(gateId);
  });

  it('answers with the decision when a person decides while the hook waits', async () => {
    const command = 'rm -rf dist';
    const waiting = hook(preToolUse('Bash', { command }), { args: ['--budget-ms', '15000'] });
    const gate = await pendingGateOf(command);
    await decide(gate.id, { option: 'approve' });
    const run = await waiting;
    expect(run.decision?.permissionDecision).toBe('allow');
    expect(run.decision?.permissionDecisionReason).toContain(`gate ${gate.id}`);
    expect(run.elapsedMs).toBeLessThan(10_000);
  });

  it('turns a steer into a denial that carries the instructions, clearly fenced', async () => {
    const input = preToolUse('Bash', { command: 'git push --force origin main' });
    const first = await hook(input, { args: ['--budget-ms', '1000'] });
    const gateId = gateIdOf(first);
    const instructions = 'Do not force-push main.\nPush to a new branch and open a pull request.';
    await decide(gateId, { option: 'steer', instructions });
    const retry = await hook({ ...input, tool_use_id: 'toolu_01steer' });
    expect(retry.decision?.permissionDecision).toBe('deny');
    const reason = retry.decision?.permissionDecisionReason ?? '';
    expect(reason).toContain(
      `user_dev did not approve this Bash call as it is and sent instructions instead (gate ${gateId})`,
    );
    expect(reason).toContain(
      `----- BEGIN INSTRUCTIONS FROM user_dev -----\n${instructions}\n----- END INSTRUCTIONS FROM user_dev -----`,
    );
  });

  it('passes on a rejection with its reason', async () => {
    const input = preToolUse('Bash', { command: 'rm -rf node_modules' });
    const gateId = gateIdOf(await hook(input, { args: ['--budget-ms', '1000'] }));
    await decide(gateId, { option: 'reject', reason: 'reinstalling takes too long' });
    const retry = await hook({ ...input, tool_use_id: 'toolu_01reject' });
    expect(retry.decision?.permissionDecision).toBe('deny');
    expect(retry.decision?.permissionDecisionReason).toContain(
      `user_dev rejected this Bash call (gate ${gateId}); it was NOT run. Reason: reinstalling takes too long`,
    );
  });

  it('delivers a steer sent to the run as a denial of the next call', async () => {
    const instruction = 'Stop refactoring; fix the failing test in cart.test.ts first.';
    await call(test.tokens.developer, 'POST', `/v1/runs/${runId}/interventions`, {
      kind: 'steer',
      instruction,
    });
    const run = await hook(preToolUse('Read', { file_path: '/home/dev/shop/src/cart.ts' }));
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain(
      `----- BEGIN INSTRUCTION 1 FROM A PERSON -----\n${instruction}\n----- END INSTRUCTION 1 FROM A PERSON -----`,
    );
    const next = await hook(preToolUse('Read', { file_path: '/home/dev/shop/src/cart.ts' }));
    expect(next.decision?.permissionDecision).toBe('allow');
  });

  it('ignores events other than PreToolUse', async () => {
    const run = await hook({
      session_id: 'f3c1d2b4-9a7e-4c55-8e21-6b0f1a2c3d4e',
      transcript_path: '/home/dev/.claude/projects/-home-dev-shop/f3c1d2b4.jsonl',
      cwd: '/home/dev/shop',
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/home/dev/shop/src/index.ts' },
      tool_response: { filePath: '/home/dev/shop/src/index.ts', success: true },
      tool_use_id: 'toolu_01post',
    });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('blocks with exit code 2 when the input is not hook JSON', async () => {
    const run = await hook('not json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('not JSON');
  });

  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['--budget-ms', '5'], '--budget-ms must be a whole number from 500 to 600000'],
  ])('blocks with exit code 2 on wrong usage %j', async (args, message) => {
    const run = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), { args });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('fails closed with a clear reason when the token is refused', async () => {
    const run = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), {
      env: { GATEHOUSE_TOKEN: 'gha_not_a_token' },
    });
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain(
      "Gatehouse refused the hook's agent token (UNAUTHENTICATED",
    );
  });

  it("fails closed when given a person's token instead of an agent token", async () => {
    const run = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), {
      env: { GATEHOUSE_TOKEN: test.tokens.developer },
    });
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain('Gatehouse refused the request (FORBIDDEN');
  });

  it('fails closed when no token is configured', async () => {
    const run = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), { env: { GATEHOUSE_TOKEN: '' } });
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain('no Gatehouse agent token is configured');
  });

  it('fails closed at once when the server is unreachable', async () => {
    const closed = await refusedPort();
    const run = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), {
      env: { GATEHOUSE_URL: `http://127.0.0.1:${closed}` },
      args: ['--budget-ms', '3000'],
    });
    expect(run.code).toBe(0);
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain(
      `the Gatehouse server at http://127.0.0.1:${closed} is unreachable (ECONNREFUSED)`,
    );
    expect(run.decision?.permissionDecisionReason).toContain('Gatehouse fails closed');
    expect(run.elapsedMs).toBeLessThan(3000);
  });

  it('fails closed within its budget when the server accepts but never answers', async () => {
    const silent = await silentServer();
    try {
      const port = (silent.address() as AddressInfo).port;
      const run = await hook(preToolUse('Bash', RM_BUILD), {
        env: { GATEHOUSE_URL: `http://127.0.0.1:${port}` },
        args: ['--budget-ms', '1500'],
      });
      expect(run.decision?.permissionDecision).toBe('deny');
      expect(run.decision?.permissionDecisionReason).toContain('Gatehouse did not answer within 1500 ms');
      expect(run.elapsedMs).toBeLessThan(1500 + 500);
    } finally {
      silent.close();
    }
  });

  it('sends the plan Claude Code leaves plan mode with (ExitPlanMode) to Gate 0 of a run that has none', async () => {
    const { run } = await call(test.tokens.agent, 'POST', '/v1/runs', { title: 'planning session' });
    const plan = '## Cart totals\n\n1. Add a total to the cart\n2. Test it';
    const answer = await hook(preToolUse('ExitPlanMode', { plan }), {
      env: { GATEHOUSE_RUN_ID: run.id },
      args: ['--budget-ms', '1500'],
    });
    expect(answer.decision?.permissionDecisionReason).toMatch(/Approval is pending \(gate gate_/);
    const gateId = gateIdOf(answer);
    const gate = await call(test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
    expect(gate.gate).toMatchObject({ type: 'intent_approval', runId: run.id, context: { design: plan } });
  });

  it('fails closed once the run is stopped', async () => {
    const { run } = await call(test.tokens.agent, 'POST', '/v1/runs', { title: 'to be stopped' });
    await call(test.tokens.developer, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'stop' });
    const answer = await hook(preToolUse('Read', { file_path: '/etc/hosts' }), {
      env: { GATEHOUSE_RUN_ID: run.id },
    });
    expect(answer.decision?.permissionDecision).toBe('deny');
    expect(answer.decision?.permissionDecisionReason).toContain(`a person stopped run ${run.id}`);
  });
});

/** Accepts connections and never answers them. */
function silentServer(): Promise<Server> {
  return new Promise((resolve) => {
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    const close = server.close.bind(server);
    server.close = ((callback?: (error?: Error) => void) => {
      for (const socket of sockets) socket.destroy();
      return close(callback);
    }) as typeof server.close;
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
