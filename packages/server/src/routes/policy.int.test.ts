import { createFakeClock, DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, insertTestRun, openTestGate, postGate, TEST_POLICY_YAML } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const BROKEN_POLICY = `name: broken
rules:
  - id: fine
    priority: 10
    action: allow
    reason: ok
  - id: bad-condition
    priority: 20
    condition: 'tool ==='
    action: deny
    reason: broken on purpose
`;

describe.each(dialects)('the policy API on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
  }

  function call(method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: unknown) {
    return test.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  it('stores the default policy as version 1 on a fresh database, audited', async () => {
    await start();
    const policy = (await call('GET', '/v1/policy', test.tokens.viewer)).json();
    expect(policy).toMatchObject({
      version: 1,
      format: 'yaml',
      createdBy: 'system',
      name: 'default',
      failure: null,
    });
    expect(policy.source).toBe(DEFAULT_POLICY_YAML);
    const events = await test.services.audit.query({ kind: 'policy.replaced' });
    expect(events.items.map((e) => e.data)).toEqual([{ version: 1, previousVersion: null, name: 'default' }]);
  });

  it('refuses a policy with an error, naming the rule, and stores nothing', async () => {
    await start();
    const response = await call('PUT', '/v1/policy', test.tokens.admin, {
      source: BROKEN_POLICY,
      format: 'yaml',
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.message).toContain('bad-condition');
    expect(error.details.errors).toEqual([
      expect.objectContaining({ ruleId: 'bad-condition', path: 'rules[1].condition' }),
    ]);
    const unknownType = TEST_POLICY_YAML.replace('requiredApprovals: 2', 'type: no_such_gate');
    const typed = await call('PUT', '/v1/policy', test.tokens.admin, { source: unknownType });
    expect(typed.json().error.details.errors[0].ruleId).toBe('two-approvals');
    expect((await call('GET', '/v1/policy/versions', test.tokens.viewer)).json().versions).toHaveLength(1);
    expect((await test.services.audit.query({ kind: 'policy.replaced' })).items).toHaveLength(1);
  });

  it('replaces the policy as a new version that the next request follows', async () => {
    await start();
    expect((await postGate(test, { tool: 'drop_database', args: {} })).json().outcome).toBe('gated');
    const replaced = await call('PUT', '/v1/policy', test.tokens.admin, {
      source: TEST_POLICY_YAML,
      format: 'yaml',
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      version: 2,
      previousVersion: 1,
      name: 'gate-tests',
      createdBy: `user:${test.ids.adminId}`,
    });
    expect((await postGate(test, { tool: 'drop_database', args: {} })).json().outcome).toBe('denied');
    const versions = (await call('GET', '/v1/policy/versions', test.tokens.viewer)).json().versions;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(versions[0].source).toBeUndefined();
    expect((await call('GET', '/v1/policy/versions/1', test.tokens.viewer)).json().source).toBe(
      DEFAULT_POLICY_YAML,
    );
    expect((await call('GET', '/v1/policy/versions/9', test.tokens.viewer)).statusCode).toBe(404);
    const audit = await test.services.audit.query({ kind: 'policy.replaced' });
    expect(audit.items[1]?.data).toEqual({ version: 2, previousVersion: 1, name: 'gate-tests' });
    const json = await call('PUT', '/v1/policy', test.tokens.admin, {
      source: JSON.stringify({ name: 'as-json', rules: [] }),
      format: 'json',
    });
    expect(json.json()).toMatchObject({ version: 3, format: 'json', name: 'as-json' });
  });

  it('dry-runs a request: the deciding rule and what would happen, writing nothing', async () => {
    await start();
    const shell = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'shell', args: { command: 'make' } },
    });
    expect(shell.statusCode).toBe(200);
    expect(shell.json()).toMatchObject({
      outcome: 'gated',
      via: 'policy',
      ruleId: 'core-shell-execution',
      policyVersion: 1,
      decision: { action: 'gate', ruleId: 'core-shell-execution' },
      gate: {
        type: 'tool_call',
        minRole: 'developer',
        timeoutAction: 'deny',
        requiredApprovals: 1,
        timeoutSeconds: null,
      },
    });
    const read = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'read_file' },
    });
    expect(read.json()).toMatchObject({ outcome: 'allowed', gate: null });
    const withSource = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'deploy' },
      source: TEST_POLICY_YAML,
    });
    expect(withSource.json()).toMatchObject({
      ruleId: 'two-approvals',
      policyVersion: null,
      gate: { requiredApprovals: 2 },
    });
    const manual = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'http_request', run: { id: 'run_x', autonomy: 'partial', approvalMode: 'manual' } },
    });
    expect(manual.json()).toMatchObject({ outcome: 'gated', via: 'approval_mode' });
    const broken = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: {},
      source: BROKEN_POLICY,
    });
    expect(broken.json().error.code).toBe('POLICY_INVALID');
    expect(await test.store.read((tx) => tx.countGates({}))).toBe(0);
  });

  it('dry-runs against remembered rules', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, { runId: run.id, tool: 'edit_file', args: {} });
    await decideTestGate(test, test.tokens.developer, gateId, {
      option: 'approve_always',
      remember: { scope: 'agent' },
    });
    const dry = await call('POST', '/v1/policy/dry-run', test.tokens.developer, {
      request: { tool: 'edit_file', agent: { id: test.ids.agentId } },
    });
    expect(dry.json()).toMatchObject({
      outcome: 'allowed',
      via: 'remembered_rule',
      decision: { action: 'gate' },
    });
  });

  it('fails closed when the stored policy does not load: every request is gated', async () => {
    await start();
    await test.store.transaction((tx) =>
      tx.insertPolicyVersion({
        source: BROKEN_POLICY,
        format: 'yaml',
        createdBy: 'user:x',
        createdAt: test.clock.now(),
      }),
    );
    await test.services.policies.start();
    const policy = (await call('GET', '/v1/policy', test.tokens.viewer)).json();
    expect(policy.version).toBe(2);
    expect(policy.failure).toContain('bad-condition');
    const read = await postGate(test, { tool: 'read_file', args: {} });
    expect(read.json().outcome).toBe('gated');
  });

  it('keeps agents and people below the role out', async () => {
    await start();
    expect((await call('GET', '/v1/policy', test.tokens.agent)).json().name).toBe('default');
    for (const [method, url, body] of [
      ['PUT', '/v1/policy', { source: TEST_POLICY_YAML }],
      ['POST', '/v1/policy/dry-run', { request: {} }],
    ] as const) {
      expect((await call(method, url, test.tokens.agent, body)).statusCode).toBe(403);
    }
    const developer = await call('PUT', '/v1/policy', test.tokens.developer, { source: TEST_POLICY_YAML });
    expect(developer.json().error.code).toBe('ROLE_TOO_LOW');
    const viewer = await call('POST', '/v1/policy/dry-run', test.tokens.viewer, { request: {} });
    expect(viewer.json().error.code).toBe('ROLE_TOO_LOW');
    expect((await call('GET', '/v1/policy/versions', test.tokens.viewer)).json().versions).toHaveLength(1);
  });
});
