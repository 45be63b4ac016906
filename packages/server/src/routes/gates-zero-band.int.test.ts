import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTestRun, postGate, useTestPolicy } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

// Seed 003, ZERO CONFIDENCE (< 0.2): "Action: Abort subtask. Present diagnostics. Wait for human decision."
const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('a request in the zero confidence band on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test);
  }

  async function activeRun(options: Parameters<typeof insertTestRun>[1] = {}) {
    const run = await insertTestRun(test, options);
    await approveTestPlan(test, run.id);
    return run;
  }

  async function briefingOf(gateId: string): Promise<string> {
    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.viewer),
    });
    return JSON.stringify(view.json().briefing);
  }

  it('tells the agent to abort the subtask, waits at high risk and presents diagnostics', async () => {
    await start();
    const run = await activeRun();
    const body = (
      await postGate(test, { runId: run.id, tool: 'write_file', args: { path: 'a.txt' }, confidence: 0.1 })
    ).json();
    expect(body.outcome).toBe('gated');
    expect(body.abortSubtask).toBe(true);
    expect(body.reason).toMatch(/zero band/);
    expect(body.gate.risk).toBe('high');
    expect(body.gate.timeoutAction).not.toBe('proceed');
    expect(await briefingOf(body.gate.id)).toMatch(/aborted: confidence 10 \/ 100 is in the zero band/);
  });

  it('holds a call the policy would allow and a run whose threshold is below the band', async () => {
    await start();
    const write = (
      await postGate(test, { tool: 'write_file', args: { path: 'a' }, confidence: 0.05 })
    ).json();
    expect(write).toMatchObject({ outcome: 'gated', abortSubtask: true });
    // Seed 003: auto-approved reads are "never prompted"; the agent is still told to stop the subtask.
    const read = (await postGate(test, { tool: 'read_file', args: { path: 'a' }, confidence: 0.05 })).json();
    expect(read).toMatchObject({ outcome: 'allowed', abortSubtask: true });
    const lenient = await activeRun({ approvalMode: 'confidence_threshold', confidenceThreshold: 0.1 });
    const lenientWrite = (
      await postGate(test, { runId: lenient.id, tool: 'write_file', args: {}, confidence: 0.15 })
    ).json();
    expect(lenientWrite).toMatchObject({ outcome: 'gated', abortSubtask: true });
  });

  it('says so again on a retry with the same idempotency key, and not outside the band', async () => {
    await start();
    const run = await activeRun();
    const first = (
      await postGate(test, { runId: run.id, tool: 'write_file', args: {}, confidence: 0.1 }, { key: 'z1' })
    ).json();
    const again = (
      await postGate(test, { runId: run.id, tool: 'write_file', args: {}, confidence: 0.1 }, { key: 'z1' })
    ).json();
    expect(again).toMatchObject({ gateId: first.gateId, abortSubtask: true });
    const low = (
      await postGate(test, { runId: run.id, tool: 'write_file', args: {}, confidence: 0.25 })
    ).json();
    expect(low).toMatchObject({ outcome: 'gated', abortSubtask: false });
    const allowed = (
      await postGate(test, { runId: run.id, tool: 'write_file', args: {}, confidence: 0.9 })
    ).json();
    expect(allowed).toMatchObject({ outcome: 'allowed', abortSubtask: false });
  });
});
