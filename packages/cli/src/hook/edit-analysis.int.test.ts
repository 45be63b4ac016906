import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approveTestPlan, createTestApp, type TestApp } from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/cli-process.js';
import { type HookRun, preToolUse, runHook } from '../testing/hook-process.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
type Json = any;

const CART_TEST = `import { describe, expect, it } from 'vitest';
import { addItem, total } from './cart.js';

describe('cart', () => {
  it('adds items', () => {
    expect(addItem([], 'apple')).toEqual(['apple']);
  });

  it('sums the total', () => {
    expect(total([{ price: 2 }, { price: 3 }])).toBe(5);
  });
});
`;

const SUM_TEST = `
  it('sums the total', () => {
    expect(total([{ price: 2 }, { price: 3 }])).toBe(5);
  });
`;

/** Edits go through when the analysis finds nothing, so the test sees the analysis alone decide. */
const EDITS_POLICY = `name: edit-analysis-tests
defaultAction: gate
rules:
  - id: edits-allowed
    priority: 300
    match: { tools: [Edit, Write, MultiEdit] }
    action: allow
    reason: Edits are checked by change analysis.
`;

const GATE_ID = /gate_[A-Za-z0-9_]+/;
const ANALYSIS_GATES = new Set(['destructive_action', 'recovery_escalation', 'false_positive_override']);

describe('the Claude Code hook analyses Edit, Write and MultiEdit against a real server', () => {
  let test: TestApp<{ now(): number }>;
  let url: string;
  let state: { dir: string; remove(): void };
  let work: { dir: string; remove(): void };
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

  function hook(input: unknown, budgetMs = 2500): Promise<HookRun> {
    return runHook(input, {
      env: {
        GATEHOUSE_URL: url,
        GATEHOUSE_TOKEN: test.tokens.agent,
        GATEHOUSE_RUN_ID: runId,
        XDG_STATE_HOME: state.dir,
      },
      args: ['--budget-ms', String(budgetMs)],
    });
  }

  function edit(toolName: string, toolInput: Record<string, unknown>) {
    return preToolUse(toolName, toolInput, { cwd: work.dir });
  }

  async function analysisGates(): Promise<Json[]> {
    const { items } = await call(test.tokens.developer, 'GET', `/v1/gates?runId=${runId}`);
    return items.filter((gate: Json) => ANALYSIS_GATES.has(gate.type));
  }

  /** The analyses the server recorded in the run, newest first. */
  async function analyses(): Promise<Json[]> {
    const query = `kind=analysis.recorded&subject=${runId}&order=desc&limit=100`;
    return (await call(test.tokens.admin, 'GET', `/v1/audit?${query}`)).items;
  }

  beforeAll(async () => {
    test = await createTestApp({ dialect: 'sqlite' });
    url = await test.app.listen({ host: '127.0.0.1', port: 0 });
    await test.services.policies.replace(test.ids.adminId, { source: EDITS_POLICY, format: 'yaml' });
    state = tempDir('gatehouse-hook-state-');
    work = tempDir('gatehouse-hook-work-');
    writeFileSync(join(work.dir, 'cart.test.ts'), CART_TEST);
    writeFileSync(join(work.dir, 'cart.ts'), 'export const total = (items) => items.length;\n');
    runId = (await call(test.tokens.agent, 'POST', '/v1/runs', { title: 'Claude Code edits' })).run.id;
    // Gate 0: the run implements nothing before its plan is approved.
    await approveTestPlan(test, runId);
    // The server's first analysis loads the grammars; the hook's budget is for the calls after it.
    await call(test.tokens.agent, 'POST', '/v1/analyze', {
      files: [{ path: 'a.ts', before: null, after: '' }],
    });
  });

  afterAll(async () => {
    await test?.close();
    state?.remove();
    work?.remove();
  });

  it('asks a person about an Edit that deletes a test, naming the test and the pattern, and the retry finds the same gate', async () => {
    const input = edit('Edit', {
      file_path: join(work.dir, 'cart.test.ts'),
      old_string: SUM_TEST,
      new_string: '',
    });
    const first = await hook(input);
    expect(first.code).toBe(0);
    expect(first.decision?.permissionDecision).toBe('deny');
    const reason = first.decision?.permissionDecisionReason ?? '';
    expect(reason).toContain('change analysis found that this Edit cuts corners');
    expect(reason).toMatch(/Approval is pending \(gate gate_/);
    expect(reason).toMatch(/- test\.removed at cart\.test\.ts:\d+ \("cart > sums the total"\)/);
    expect(first.systemMessage).toContain('waits for approval after change analysis');
    const gateId = GATE_ID.exec(reason)?.[0] as string;
    const { gate } = await call(test.tokens.developer, 'GET', `/v1/gates/${gateId}`);
    expect(gate).toMatchObject({ type: 'destructive_action', status: 'pending', runId });
    expect(gate.action).toMatchObject({ tool: 'Edit', args: { old_string: SUM_TEST, new_string: '' } });
    expect(readFileSync(join(work.dir, 'cart.test.ts'), 'utf8')).toBe(CART_TEST);

    const retry = await hook({ ...input, tool_use_id: 'toolu_01retryedit' });
    expect(GATE_ID.exec(retry.decision?.permissionDecisionReason ?? '')?.[0]).toBe(gateId);
    expect((await analysisGates()).filter((item) => item.type === 'destructive_action')).toHaveLength(1);

    await call(test.tokens.admin, 'POST', `/v1/gates/${gateId}/decide`, {
      option: 'reject',
      reason: 'keep the total test',
    });
    const rejected = await hook({ ...input, tool_use_id: 'toolu_01afterreject' });
    expect(rejected.decision?.permissionDecision).toBe('deny');
    expect(rejected.decision?.permissionDecisionReason).toContain(
      `did not approve this Edit after change analysis (gate ${gateId}`,
    );
    expect(rejected.decision?.permissionDecisionReason).toContain('keep the total test');
  });

  it('analyses a harmless Edit and goes on to the usual request, which the policy allows', async () => {
    const before = (await analysisGates()).length;
    const recorded = (await analyses()).length;
    const run = await hook(
      edit('Edit', {
        file_path: join(work.dir, 'cart.ts'),
        old_string: 'items.length',
        new_string: 'items.length + 0',
      }),
    );
    expect(run.code).toBe(0);
    expect(run.decision).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringContaining('Edit allowed by rule edits-allowed'),
    });
    expect(await analysisGates()).toHaveLength(before);
    const [latest, ...older] = await analyses();
    expect(older).toHaveLength(recorded);
    expect(latest.data).toMatchObject({ findings: [], gates: [], facts: { testsRemoved: 0 } });
  });

  it('analyses a Write of a new file as added, with nothing to remove', async () => {
    const before = (await analysisGates()).length;
    const recorded = (await analyses()).length;
    const run = await hook(
      edit('Write', { file_path: join(work.dir, 'tax.test.ts'), content: "it('adds tax', () => {});\n" }),
    );
    expect(run.decision?.permissionDecisionReason).toContain('Write allowed by rule edits-allowed');
    expect(await analysisGates()).toHaveLength(before);
    const [latest, ...older] = await analyses();
    expect(older).toHaveLength(recorded);
    expect(latest.data).toMatchObject({ gates: [], facts: { testsAdded: 1, testsRemoved: 0 } });
  });

  it('asks about a MultiEdit that skips a test and deletes another, and lets its retry through once approved', async () => {
    const input = edit('MultiEdit', {
      file_path: join(work.dir, 'cart.test.ts'),
      edits: [
        // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
        { old_string: "it('adds items'", new_string: "it.\u0073kip('adds items'" },
        { old_string: SUM_TEST, new_string: '' },
      ],
    });
    const run = await hook(input);
    expect(run.decision?.permissionDecision).toBe('deny');
    const reason = run.decision?.permissionDecisionReason ?? '';
    expect(reason).toContain('change analysis found that this MultiEdit cuts corners');
    expect(reason).toContain('- test.removed at cart.test.ts:9 ("cart > sums the total")');
    expect(reason).toContain('- test.skip_added at cart.test.ts:5 ("cart > adds items")');

    const gateId = GATE_ID.exec(reason)?.[0] as string;
    await call(test.tokens.admin, 'POST', `/v1/gates/${gateId}/decide`, { option: 'approve' });
    const retry = await hook({ ...input, tool_use_id: 'toolu_01afterapprove' });
    expect(retry.decision?.permissionDecision).toBe('allow');
    expect(retry.decision?.permissionDecisionReason).toContain('MultiEdit allowed by rule edits-allowed');
  });

  it('leaves an Edit whose old_string does not match to Claude Code, without analysing it', async () => {
    const before = (await analysisGates()).length;
    const recorded = (await analyses()).length;
    const run = await hook(
      edit('Edit', {
        file_path: join(work.dir, 'cart.test.ts'),
        old_string: 'not in the file',
        new_string: '',
      }),
    );
    expect(run.decision?.permissionDecisionReason).toContain('Edit allowed by rule edits-allowed');
    expect(await analysisGates()).toHaveLength(before);
    expect(await analyses()).toHaveLength(recorded);
  });

  it('fails closed when the server cannot be reached', async () => {
    const run = await runHook(
      edit('Edit', { file_path: join(work.dir, 'cart.test.ts'), old_string: SUM_TEST, new_string: '' }),
      {
        env: {
          GATEHOUSE_URL: 'http://127.0.0.1:9',
          GATEHOUSE_TOKEN: test.tokens.agent,
          GATEHOUSE_RUN_ID: runId,
          XDG_STATE_HOME: state.dir,
        },
      },
    );
    expect(run.decision?.permissionDecision).toBe('deny');
    expect(run.decision?.permissionDecisionReason).toContain('Gatehouse fails closed');
  });
});
