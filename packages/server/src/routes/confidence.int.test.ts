import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createInProcessBus } from '../events/bus.js';
import { insertTestRun, postGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan, createRunViaApi, postIntervention } from '../testing/runs.js';
import { snapshotState } from '../testing/state-snapshot.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const WRITES_ALLOWED = `name: writes-allowed
rules:
  - id: writes
    priority: 10
    match: { tools: [write_file] }
    action: allow
    reason: writes are fine here
`;

describe.each(dialects)('confidence reports on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;

  beforeAll(async () => {
    test = await createTestApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  function report(body: Record<string, unknown>, token = test.tokens.agent) {
    return test.app.inject({ method: 'POST', url: '/v1/confidence', headers: bearer(token), payload: body });
  }

  it.each([
    ['a score of 85', { score: 85 }, true, 'high'],
    ['a confidence of 0.85', { confidence: 0.85 }, true, 'high'],
    ['a score of 95', { score: 95 }, false, 'high'],
    ['a confidence of 0.95', { confidence: 0.95 }, false, 'high'],
    ['a score of 90, exactly the threshold', { score: 90 }, false, 'high'],
    ['a confidence of 0.3', { confidence: 0.3 }, true, 'low'],
  ])('holds %s against the default threshold 90', async (_name, scale, escalated, band) => {
    const response = await report({ ...scale, reasons: ['tests pass', 'one flaky check'] });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ escalated, band, threshold: 90 });
    expect(body.confidence).toBeCloseTo(
      (scale as { score?: number }).score === undefined
        ? (scale as { confidence: number }).confidence
        : (scale as { score: number }).score / 100,
    );
    const kinds = (await test.services.audit.query({ kind: 'confidence.reported' })).items.map(
      (event) => event.data.reportId,
    );
    expect(kinds).toContain(body.id);
    if (!escalated) {
      expect(body.gateId).toBeNull();
      return;
    }
    const gate = await test.store.read((tx) => tx.getGate(body.gateId));
    expect(gate).toMatchObject({
      type: 'confidence_threshold',
      status: 'pending',
      agentId: test.ids.agentId,
      context: { band, reasons: ['tests pass', 'one flaky check'], threshold: 90, reportId: body.id },
    });
    const escalations = await test.services.audit.query({
      kind: 'confidence.escalated',
      subject: body.gateId,
    });
    expect(escalations.items).toHaveLength(1);
  });

  it('refuses a score that is not a whole number with a 400 naming score, and keeps confidence a fraction', async () => {
    const before = await snapshotState(test.store);
    for (const score of [85.5, 0.5, 99.99]) {
      const response = await report({ score });
      expect(response.statusCode).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(/^score: /);
      expect(error.message).toContain('whole number');
      expect(error.details.fields[0].field).toBe('score');
    }
    expect(await snapshotState(test.store)).toBe(before);
    const fraction = await report({ confidence: 0.855 });
    expect(fraction.statusCode).toBe(200);
    expect(fraction.json().confidence).toBe(0.855);
  });

  it('aborts the subtask on a zero-band report: tells the agent, and the gate presents diagnostics', async () => {
    const run = await createRunViaApi(test);
    await report({ runId: run.id, score: 45, taskId: 'task-9' });
    const response = await report({
      runId: run.id,
      score: 10,
      reasons: ['cannot reproduce'],
      taskId: 'task-9',
    });
    const body = response.json();
    expect(body).toMatchObject({ band: 'zero', escalated: true, abortSubtask: true });
    expect(body.reason).toContain('abort the subtask');
    const gate = await test.store.read((tx) => tx.getGate(body.gateId));
    expect(gate?.context).toMatchObject({
      action: 'abort_subtask',
      diagnostics: [
        'Subtask task-9 aborted: confidence 10 / 100 is in the zero band (below 20).',
        'Earlier reports on this run: 45 (task-9).',
      ],
    });
    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${body.gateId}`,
      headers: bearer(test.tokens.admin),
    });
    const briefing = view.json().briefing;
    expect(briefing.summary).toContain('the subtask is aborted');
    expect(briefing.sections).toContainEqual(
      expect.objectContaining({
        title: 'Diagnostics',
        lines: expect.arrayContaining(['Earlier reports on this run: 45 (task-9).']),
      }),
    );
    const low = (await report({ runId: run.id, score: 30 })).json();
    expect(low).toMatchObject({ band: 'low', escalated: true, abortSubtask: false });
    const lowGate = await test.store.read((tx) => tx.getGate(low.gateId));
    expect(lowGate?.context).not.toHaveProperty('diagnostics');
    const audit = await test.services.audit.query({ kind: 'confidence.reported' });
    expect(audit.items.find((event) => event.data.reportId === body.id)?.data).toMatchObject({
      abortSubtask: true,
    });
  });

  it('aborts the subtask in the zero band even under a threshold below it', async () => {
    const lenient = await createTestApp({
      dialect,
      config: { confidenceEnv: { CONFIDENCE_THRESHOLD: '10' } },
    });
    try {
      const post = (score: number) =>
        lenient.app.inject({
          method: 'POST',
          url: '/v1/confidence',
          headers: bearer(lenient.tokens.agent),
          payload: { score },
        });
      expect((await post(15)).json()).toMatchObject({ band: 'zero', escalated: true, abortSubtask: true });
      expect((await post(25)).json()).toMatchObject({ band: 'low', escalated: false, abortSubtask: false });
    } finally {
      await lenient.close();
    }
  }, 60_000);

  it('presents diagnostics on the gate of a zero-band task completion', async () => {
    const response = await postGate(test, {
      event: 'task_completion',
      operation: 'finish task-3',
      confidence: 0.1,
      context: { taskId: 'task-3' },
    });
    const body = response.json();
    expect(body).toMatchObject({ outcome: 'gated', gate: { type: 'confidence_threshold' } });
    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${body.gate.id}`,
      headers: bearer(test.tokens.admin),
    });
    expect(view.json().briefing.sections).toContainEqual(
      expect.objectContaining({
        title: 'Diagnostics',
        lines: ['Subtask task-3 aborted: confidence 10 / 100 is in the zero band (below 20).'],
      }),
    );
  });

  it('gates a step in confidence_threshold mode below the run threshold 0.8 and lets 0.8 through', async () => {
    await useTestPolicy(test, WRITES_ALLOWED);
    try {
      const run = await insertTestRun(test, {
        approvalMode: 'confidence_threshold',
        confidenceThreshold: 0.8,
      });
      await approveTestPlan(test, run.id);
      const step = (confidence: number) =>
        postGate(test, { runId: run.id, tool: 'write_file', args: { path: 'notes.md' }, confidence });
      const below = (await step(0.79)).json();
      expect(below).toMatchObject({
        outcome: 'gated',
        reason: expect.stringContaining('confidence_threshold'),
      });
      expect((await step(0.8)).json()).toMatchObject({ outcome: 'allowed', ruleId: 'writes' });
    } finally {
      await useTestPolicy(test, DEFAULT_POLICY_YAML);
    }
  });

  it('opens a high-risk gate for a zero-band report and keeps the run waiting on it', async () => {
    const run = await createRunViaApi(test);
    const body = (await report({ runId: run.id, score: 10, reasons: ['no idea'], taskId: 'task-7' })).json();
    expect(body).toMatchObject({ escalated: true, band: 'zero' });
    const gate = await test.store.read((tx) => tx.getGate(body.gateId));
    expect(gate).toMatchObject({ risk: 'high', runId: run.id, context: { taskId: 'task-7', score: 10 } });
    const stored = await test.store.read((tx) => tx.listConfidenceReports(run.id));
    expect(stored).toEqual([expect.objectContaining({ id: body.id, confidence: 0.1, taskId: 'task-7' })]);
    const detail = await test.app.inject({
      method: 'GET',
      url: `/v1/runs/${run.id}`,
      headers: bearer(test.tokens.agent),
    });
    expect(detail.json().run.status).toBe('waiting');
  });

  it('keeps reasons with hidden characters readable as markers, the task id machine-safe', async () => {
    const run = await createRunViaApi(test);
    const reasons = ['tests \u202epass', 'line one\nline two\u200b'];
    const body = (await report({ runId: run.id, score: 10, reasons, taskId: 'task\u200b-8' })).json();
    const stored = await test.store.read((tx) => tx.listConfidenceReports(run.id));
    expect(stored).toEqual([
      expect.objectContaining({
        id: body.id,
        reasons: ['tests ⟨U+202E⟩pass', 'line one\nline two⟨U+200B⟩'],
        taskId: 'task-8',
      }),
    ]);
  });

  it("applies a run's own threshold to its reports only to raise it", async () => {
    const run = await createRunViaApi(test, { confidenceThreshold: 0.95 });
    expect((await report({ runId: run.id, score: 96 })).json()).toMatchObject({
      escalated: false,
      threshold: 95,
    });
    expect((await report({ runId: run.id, score: 93 })).json()).toMatchObject({
      escalated: true,
      threshold: 95,
    });
    const lower = await createRunViaApi(test, { confidenceThreshold: 0.85 });
    expect((await report({ runId: lower.id, score: 87 })).json()).toMatchObject({
      escalated: true,
      threshold: 90,
    });
  });

  it('refuses a report without exactly one scale, out of range, or with too many reasons, writing nothing', async () => {
    const before = await snapshotState(test.store);
    for (const body of [
      { reasons: [] },
      { score: 80, confidence: 0.8 },
      { score: 101 },
      { confidence: 1.5 },
      { score: 50, reasons: Array.from({ length: 51 }, () => 'r') },
      { score: 50, reasons: ['x'.repeat(2001)] },
    ]) {
      const response = await report(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect(await snapshotState(test.store)).toBe(before);
  });

  it("refuses people, other agents' runs and stopped runs", async () => {
    const run = await createRunViaApi(test);
    const before = await snapshotState(test.store);
    expect((await report({ score: 50 }, test.tokens.admin)).statusCode).toBe(403);
    expect((await report({ runId: run.id, score: 50 }, test.tokens.otherAgent)).statusCode).toBe(404);
    expect((await report({ runId: 'run_missing', score: 50 })).statusCode).toBe(404);
    expect(await snapshotState(test.store)).toBe(before);
    await postIntervention(test, run.id, { kind: 'stop' });
    expect((await report({ runId: run.id, score: 50 })).json().error.code).toBe('RUN_STOPPED');
  });

  it('refuses to start with a broken CONFIDENCE_THRESHOLD', async () => {
    const config = { ...test.config, confidenceEnv: { CONFIDENCE_THRESHOLD: 'very high' } };
    const bus = createInProcessBus();
    await expect(buildApp({ store: test.store, bus, clock: test.clock, config })).rejects.toThrow(
      /CONFIDENCE_THRESHOLD/,
    );
  });

  it('does not escalate when auto-escalation is off', async () => {
    const off = await createTestApp({
      dialect: 'sqlite',
      config: { confidenceEnv: { CONFIDENCE_AUTO_ESCALATE: 'false' } },
    });
    try {
      const response = await off.app.inject({
        method: 'POST',
        url: '/v1/confidence',
        headers: bearer(off.tokens.agent),
        payload: { score: 40 },
      });
      expect(response.json()).toMatchObject({ escalated: false, gateId: null, band: 'low' });
    } finally {
      await off.close();
    }
  });
});
