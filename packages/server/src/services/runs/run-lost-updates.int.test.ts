import type { LightMyRequestResponse } from 'fastify';
import { createFakeClock } from 'gatehouse-hitl-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate, insertTestRun, openTestGate, useTestPolicy } from '../../testing/gates.js';
import { loseRunUpdates } from '../../testing/lost-updates.js';
import { approveTestPlan, postIntervention } from '../../testing/runs.js';
import { createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('a run that keeps changing underneath on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;

  beforeAll(async () => {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test);
  }, 60_000);
  afterAll(async () => {
    await test?.close();
  });

  /** Runs `act` while every conditional update of the run loses, then lets updates through again. */
  async function whileLosing(runId: string, act: () => Promise<LightMyRequestResponse>) {
    const restore = loseRunUpdates(test.store, runId);
    try {
      return await act();
    } finally {
      restore();
    }
  }

  it('answers 409 CONFLICT naming the run, whether a decision or an intervention lost the race', async () => {
    const steeredRun = await insertTestRun(test);
    await approveTestPlan(test, steeredRun.id);
    const gateId = await openTestGate(test, {
      runId: steeredRun.id,
      tool: 'shell',
      args: { command: 'npm i' },
      context: { why: 'deps' },
    });
    const steer = { option: 'steer', instructions: 'Use pnpm instead.' };
    const steered = await whileLosing(steeredRun.id, () =>
      decideTestGate(test, test.tokens.developer, gateId, steer),
    );
    const pausedRun = await insertTestRun(test);
    const paused = await whileLosing(pausedRun.id, () =>
      postIntervention(test, pausedRun.id, { kind: 'pause' }),
    );

    const answers = [
      { response: steered, runId: steeredRun.id },
      { response: paused, runId: pausedRun.id },
    ];
    for (const { response, runId } of answers) {
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error).toMatchObject({
        code: 'CONFLICT',
        message: `run ${runId} kept changing underneath; read it again and retry`,
        details: { runId },
      });
    }
  });

  it('rolls the lost decision back, so reading again and retrying succeeds', async () => {
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, {
      runId: run.id,
      tool: 'shell',
      args: { command: 'npm ci' },
      context: { why: 'deps' },
    });
    const steer = { option: 'steer', instructions: 'Use pnpm instead.' };
    const lost = await whileLosing(run.id, () => decideTestGate(test, test.tokens.developer, gateId, steer));
    expect(lost.statusCode).toBe(409);
    expect((await test.store.read((tx) => tx.getGate(gateId)))?.status).toBe('pending');

    const retried = await decideTestGate(test, test.tokens.developer, gateId, steer);
    expect(retried.json().gate.status).toBe('steered');
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.instructions).toEqual(['Use pnpm instead.']);
  });
});
