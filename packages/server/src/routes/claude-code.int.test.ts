import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_POLICY_YAML, useTestPolicy } from '../testing/gates.js';
import { createRunViaApi, postIntervention } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
type Json = any;

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const PRE = '/v1/hooks/claude-code/pre-tool-use';
const PERMISSION = '/v1/hooks/claude-code/permission-request';
const GATE_ID = /gate_[A-Za-z0-9_]+/;

let toolUse = 0;

/** A PreToolUse input exactly as Claude Code's reference documents it. */
function preToolUse(toolName: string, toolInput: Record<string, unknown>, event = 'PreToolUse') {
  toolUse += 1;
  return {
    session_id: 'sess-1',
    transcript_path: '/home/dev/.claude/projects/shop/sess-1.jsonl',
    cwd: '/home/dev/shop',
    permission_mode: 'default',
    hook_event_name: event,
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_${toolUse}`,
  };
}

/** Claude Code's built-in tools with documented inputs, and what the default policy makes of them. */
const BUILT_IN: [string, Record<string, unknown>, 'allow' | 'ask', string][] = [
  ['Read', { file_path: '/home/dev/shop/src/cart.ts' }, 'allow', 'core-file-reads'],
  [
    'Grep',
    { pattern: 'total', path: '/home/dev/shop/src', output_mode: 'content' },
    'allow',
    'core-file-reads',
  ],
  ['Glob', { pattern: 'src/**/*.ts' }, 'allow', 'core-file-reads'],
  ['LS', { path: '/home/dev/shop' }, 'allow', 'core-file-reads'],
  ['NotebookRead', { notebook_path: '/home/dev/shop/a.ipynb' }, 'allow', 'claude-code-read-only'],
  ['TodoWrite', { todos: [{ content: 'x', status: 'pending', id: '1' }] }, 'allow', 'claude-code-read-only'],
  ['WebFetch', { url: 'https://example.com/docs', prompt: 'Summarise' }, 'allow', 'core-external-api-calls'],
  ['WebSearch', { query: 'vitest mocks' }, 'allow', 'core-external-api-calls'],
  [
    'Task',
    { description: 'Find tests', prompt: 'List the tests', subagent_type: 'general-purpose' },
    'allow',
    'core-agent-spawning',
  ],
  ['Bash', { command: 'npm test', description: 'Run the tests' }, 'ask', 'core-shell-execution'],
  [
    'Edit',
    { file_path: '/home/dev/shop/src/cart.ts', old_string: 'a', new_string: 'b' },
    'ask',
    'claude-code-file-edits',
  ],
  [
    'Write',
    { file_path: '/home/dev/shop/src/new.ts', content: 'export {};\n' },
    'ask',
    'claude-code-file-edits',
  ],
  [
    'MultiEdit',
    { file_path: '/home/dev/shop/src/cart.ts', edits: [{ old_string: 'a', new_string: 'b' }] },
    'ask',
    'claude-code-file-edits',
  ],
  [
    'NotebookEdit',
    { notebook_path: '/home/dev/shop/a.ipynb', new_source: 'print(1)', cell_id: 'c1' },
    'ask',
    'claude-code-file-edits',
  ],
  [
    'mcp__github__create_issue',
    { owner: 'acme', repo: 'shop', title: 'Bug' },
    'ask',
    'claude-code-mcp-tools',
  ],
];

describe.each(dialects)('Claude Code http hook on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let runId: string;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
    runId = (await createRunViaApi(test, { title: 'claude code session' })).id;
  });
  afterAll(async () => {
    await test?.close();
  });

  async function hook(
    body: unknown,
    options: { query?: string; path?: string; token?: string | null; run?: string } = {},
  ): Promise<{ status: number; json: Json; error: string | undefined }> {
    const token = options.token === undefined ? test.tokens.agent : options.token;
    const response = await test.app.inject({
      method: 'POST',
      url: `${options.path ?? PRE}${options.query ?? ''}`,
      headers: {
        ...(token === null ? {} : bearer(token)),
        ...(options.run === undefined ? {} : { 'x-gatehouse-run-id': options.run }),
      },
      payload: body as Record<string, unknown>,
    });
    return {
      status: response.statusCode,
      json: response.json(),
      error: response.headers['x-gatehouse-error'] as string | undefined,
    };
  }

  const decisionOf = (json: Json) => json.hookSpecificOutput.permissionDecision;
  const reasonOf = (json: Json): string => json.hookSpecificOutput.permissionDecisionReason;
  const gateIdOf = (json: Json) => GATE_ID.exec(reasonOf(json))?.[0] as string;

  function decide(gateId: string, decision: Record<string, unknown>) {
    return test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: bearer(test.tokens.developer),
      payload: decision,
    });
  }

  async function untilPending(text: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const { items } = await test.services.gates.list(
        { kind: 'agent', id: test.ids.agentId },
        { status: 'pending' },
      );
      const gate = items.find((item) => JSON.stringify(item.action?.args ?? {}).includes(text));
      if (gate !== undefined) return gate.id;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no pending gate for ${text}`);
  }

  it.each(BUILT_IN)('answers %s as Claude Code documents it (%s)', async (tool, input, expected, ruleId) => {
    const { status, json } = await hook(preToolUse(tool, input), { query: '?mode=ask' });
    expect(status).toBe(200);
    expect(json.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(decisionOf(json)).toBe(expected);
    if (expected === 'allow') expect(reasonOf(json)).toContain(`rule ${ruleId}`);
    else expect(reasonOf(json)).toMatch(GATE_ID);
  });

  it('tolerates fields Claude Code adds later', async () => {
    const body = { ...preToolUse('Read', { file_path: '/a' }), model: 'x', effort: { level: 'high' } };
    expect(decisionOf((await hook(body)).json)).toBe('allow');
  });

  it('holds a gated call until a person approves it, then uses the approval once', async () => {
    const body = preToolUse('Bash', { command: 'make deploy-wait' });
    const answer = hook(body, { query: '?mode=wait&waitMs=20000' });
    const gateId = await untilPending('make deploy-wait');
    expect((await decide(gateId, { option: 'approve', reason: 'go' })).statusCode).toBe(200);
    const { json } = await answer;
    expect(decisionOf(json)).toBe('allow');
    expect(reasonOf(json)).toContain(`approved by user_dev (gate ${gateId})`);
    const again = await hook(preToolUse('Bash', { command: 'make deploy-wait' }), { query: '?mode=ask' });
    expect(gateIdOf(again.json)).not.toBe(gateId);
  });

  it('runs a person’s edited arguments as updatedInput', async () => {
    const answer = hook(preToolUse('Bash', { command: 'rm -r build-edit' }), { query: '?waitMs=20000' });
    const gateId = await untilPending('rm -r build-edit');
    const edited = { command: 'rm -r build-edit/cache' };
    expect((await decide(gateId, { option: 'approve', editedArgs: edited })).statusCode).toBe(200);
    const { json } = await answer;
    expect(json.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow', updatedInput: edited });
    expect(
      (await test.services.gates.view({ kind: 'agent', id: test.ids.agentId }, gateId)).consumedAt,
    ).not.toBeNull();
  });

  it('answers a pending call by mode and finds the same gate on the retry', async () => {
    const input = { command: 'terraform apply' };
    const waited = await hook(preToolUse('Bash', input), { query: '?waitMs=0' });
    expect(decisionOf(waited.json)).toBe('deny');
    expect(reasonOf(waited.json)).toContain('Retry exactly the same call later');
    const gateId = gateIdOf(waited.json);
    const asked = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    expect([decisionOf(asked.json), gateIdOf(asked.json)]).toEqual(['ask', gateId]);
    const deferredAnswer = await hook(preToolUse('Bash', input), { query: '?mode=defer' });
    expect([decisionOf(deferredAnswer.json), gateIdOf(deferredAnswer.json)]).toEqual(['defer', gateId]);
    const atBudget = await hook(preToolUse('Bash', input), { query: '?waitMs=0&atBudget=ask' });
    expect(decisionOf(atBudget.json)).toBe('ask');
    await decide(gateId, { option: 'reject', reason: 'not today' });
    const retried = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    expect(decisionOf(retried.json)).toBe('deny');
    expect(reasonOf(retried.json)).toContain('not today');
    const afresh = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    expect(gateIdOf(afresh.json)).not.toBe(gateId);
  });

  it.each([
    [
      'a rejection',
      { command: 'rm -rf build/cache' },
      { option: 'reject', reason: 'never delete build dirs from Claude' },
      ['user_dev rejected this Bash call', 'never delete build dirs from Claude'],
    ],
    [
      'a steer',
      { command: 'git push origin main' },
      { option: 'steer', instructions: 'push to a new branch instead' },
      ['BEGIN INSTRUCTIONS FROM user_dev', 'push to a new branch instead'],
    ],
  ])(
    'hands %s made after the wait ran out to the identical retry, once, with no second gate',
    async (_what, input, decision, words) => {
      const waited = await hook(preToolUse('Bash', input), { query: '?waitMs=0' });
      expect(reasonOf(waited.json)).toContain('Retry exactly the same call later');
      const gateId = gateIdOf(waited.json);
      expect((await decide(gateId, decision)).statusCode).toBe(200);

      const retried = await hook(preToolUse('Bash', input), { query: '?waitMs=0' });
      expect(decisionOf(retried.json)).toBe('deny');
      for (const word of words) expect(reasonOf(retried.json)).toContain(word);
      const { items } = await test.services.gates.list(
        { kind: 'agent', id: test.ids.agentId },
        { limit: 500 },
      );
      const same = items.filter((gate) => gate.action?.args.command === input.command);
      expect(same.map((gate) => gate.id)).toEqual([gateId]);

      // The decision was delivered: the next identical call is decided afresh.
      const again = await hook(preToolUse('Bash', input), { query: '?waitMs=0' });
      expect(reasonOf(again.json)).toContain('Retry exactly the same call later');
      expect(gateIdOf(again.json)).not.toBe(gateId);
    },
  );

  it('lets the retry of a call approved while nobody waited run once, then asks again', async () => {
    const input = { command: 'npm publish --dry-run' };
    const asked = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    const gateId = gateIdOf(asked.json);
    await decide(gateId, { option: 'approve', reason: 'fine' });
    const retried = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    expect(decisionOf(retried.json)).toBe('allow');
    expect(reasonOf(retried.json)).toContain(`gate ${gateId}`);
    const third = await hook(preToolUse('Bash', input), { query: '?mode=ask' });
    expect(decisionOf(third.json)).toBe('ask');
    expect(gateIdOf(third.json)).not.toBe(gateId);
  });

  it('labels a rejection as the person’s and a steer as their instructions', async () => {
    const answer = hook(preToolUse('Bash', { command: 'git push --tags' }), { query: '?waitMs=20000' });
    const gateId = await untilPending('git push --tags');
    await decide(gateId, { option: 'reject', reason: 'tags are cut by CI' });
    const { json } = await answer;
    expect(decisionOf(json)).toBe('deny');
    expect(reasonOf(json)).toContain('user_dev rejected this Bash call');
    expect(reasonOf(json)).toContain('tags are cut by CI');
    const steer = hook(preToolUse('Bash', { command: 'git push -f' }), { query: '?waitMs=20000' });
    const steerId = await untilPending('git push -f');
    await decide(steerId, { option: 'steer', instructions: 'Open a pull request instead.' });
    expect(reasonOf((await steer).json)).toContain('BEGIN INSTRUCTIONS FROM user_dev');
  });

  it('answers PermissionRequest only with a person’s decision or a denial, never a policy allow', async () => {
    const read = await hook(preToolUse('Read', { file_path: '/a' }, 'PermissionRequest'), {
      path: PERMISSION,
    });
    expect(read.json.hookSpecificOutput).toBeUndefined();
    const body = () => preToolUse('Bash', { command: 'docker system prune' }, 'PermissionRequest');
    const open = await hook(body(), { path: PERMISSION, query: '?mode=ask' });
    expect(open.json.hookSpecificOutput).toBeUndefined();
    const gateId = await untilPending('docker system prune');
    await decide(gateId, { option: 'approve', reason: 'the cache can go' });
    const after = await hook(body(), { path: PERMISSION, query: '?mode=ask' });
    expect(after.json.hookSpecificOutput).toEqual({
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow' },
    });
    const denied = await hook(preToolUse('Bash', { command: 'x' }, 'PermissionRequest'), {
      path: PERMISSION,
      token: null,
    });
    expect(denied.json.hookSpecificOutput.decision.behavior).toBe('deny');
  });

  it('holds back an Edit in a run whose change removes a test (change analysis)', async () => {
    const tests =
      "it('adds 0', () => {\n  expect(add(0, 1)).toBe(1);\n});\nit('adds 1', () => {\n  expect(add(1, 1)).toBe(2);\n});\n";
    const input = {
      file_path: '/home/dev/shop/test/add.test.ts',
      old_string: tests,
      new_string: "it('adds 0', () => {\n  expect(add(0, 1)).toBe(1);\n});\n",
    };
    const { json } = await hook(preToolUse('Edit', input), { query: '?waitMs=0', run: runId });
    expect(decisionOf(json)).toBe('deny');
    expect(reasonOf(json)).toContain('change analysis found that this Edit cuts corners');
  });

  it.each<[string, { token?: string | null; run?: string }, string]>([
    ['no token', { token: null }, 'UNAUTHENTICATED'],
    ['a person’s token', { token: 'developer' }, 'FORBIDDEN'],
    ['a run id that is not one', { run: 'nope' }, 'VALIDATION_FAILED'],
  ])(
    'denies with %s instead of an HTTP error Claude Code would let through',
    async (_name, options, code) => {
      const token = options.token === 'developer' ? test.tokens.developer : options.token;
      const { status, json, error } = await hook(preToolUse('Read', { file_path: '/a' }), {
        ...(token === undefined ? {} : { token }),
        ...(options.run === undefined ? {} : { run: options.run }),
      });
      expect([status, error, decisionOf(json)]).toEqual([200, code, 'deny']);
      expect(reasonOf(json)).toContain('fails closed');
    },
  );

  it('denies input whose fields are wrong, naming the field', async () => {
    const { status, json, error } = await hook({ ...preToolUse('Read', {}), tool_input: 'cat /etc/passwd' });
    expect([status, error, decisionOf(json)]).toEqual([200, 'VALIDATION_FAILED', 'deny']);
    expect(reasonOf(json)).toContain('tool_input');
    const wrongEvent = await hook(preToolUse('Read', {}, 'PostToolUse'));
    expect(reasonOf(wrongEvent.json)).toContain('hook_event_name');
  });

  it('denies every call of a stopped run', async () => {
    const run = await createRunViaApi(test, { title: 'to stop' });
    expect((await postIntervention(test, run.id, { kind: 'stop' })).statusCode).toBeLessThan(300);
    const { json } = await hook(preToolUse('Read', { file_path: '/a' }), { run: run.id });
    expect(decisionOf(json)).toBe('deny');
    expect(reasonOf(json)).toContain(`a person stopped run ${run.id}`);
  });

  it('sends Claude Code’s plan (ExitPlanMode) to Gate 0 and lets the run implement once a person approves it', async () => {
    const run = await createRunViaApi(test, { title: 'plan mode' });
    const edit = { file_path: '/home/dev/shop/src/cart.ts', old_string: 'a', new_string: 'b' };
    const held = await hook(preToolUse('Edit', edit), { run: run.id, query: '?mode=ask' });
    expect(decisionOf(held.json)).toBe('deny');
    expect(reasonOf(held.json)).toContain('RUN_HELD');
    const plan = '## Cart totals\n\n1. Add a total to the cart\n2. Test it';
    const answer = hook(preToolUse('ExitPlanMode', { plan }, 'PermissionRequest'), {
      path: PERMISSION,
      run: run.id,
      query: '?waitMs=20000',
    });
    const gateId = await untilPending('Add a total to the cart');
    const gate = (await test.services.gates.view({ kind: 'agent', id: test.ids.agentId }, gateId)).gate;
    expect(gate).toMatchObject({ type: 'intent_approval', runId: run.id, context: { design: plan } });
    expect((await decide(gateId, { option: 'approve', reason: 'good plan' })).statusCode).toBe(200);
    const { json } = await answer;
    // Claude Code leaves plan mode on an allow only when it carries updatedInput.
    expect(json.hookSpecificOutput).toEqual({
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { plan } },
    });
    const implementing = await hook(preToolUse('Edit', edit), { run: run.id, query: '?mode=ask' });
    expect(decisionOf(implementing.json)).toBe('ask');
  });

  it('labels a policy denial as the policy’s', async () => {
    await useTestPolicy(
      test,
      TEST_POLICY_YAML.replace(
        'rules:',
        `rules:
  - id: no-prod-fetch
    priority: 990
    match: { tools: [WebFetch] }
    action: deny
    reason: Production is off limits.`,
      ),
    );
    const { json } = await hook(preToolUse('WebFetch', { url: 'https://prod.example', prompt: 'x' }));
    expect(decisionOf(json)).toBe('deny');
    expect(reasonOf(json)).toContain('denied by the policy (rule no-prod-fetch): Production is off limits.');
  });
});
