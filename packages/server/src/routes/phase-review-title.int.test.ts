import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('the title of a phase review gate on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function reviewTitle(runTitle: string | undefined, checkpoint: Record<string, unknown>) {
    const created = await test.app.inject({
      method: 'POST',
      url: '/v1/runs',
      headers: bearer(test.tokens.agent),
      payload: { autonomy: 'dependent', ...(runTitle === undefined ? {} : { title: runTitle }) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const runId: string = created.json().run.id;
    await approveTestPlan(test, runId);
    const answer = await test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/checkpoint`,
      headers: bearer(test.tokens.agent),
      payload: checkpoint,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return { runId, title: answer.json().gate.title as string };
  }

  it('names the run by its title, not its id; an untitled run keeps its id, the only name it has', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(test);
    const phase = await reviewTitle('Health endpoint', { phase: 1, type: 'strategic' });
    expect(phase.title).toBe('Review of phase 1 (strategic) of “Health endpoint”');
    expect(phase.title).not.toContain(phase.runId);
    const final = await reviewTitle('Health endpoint', { phase: 1, type: 'tactical', jobComplete: true });
    expect(final.title).toBe('Final review of “Health endpoint”');
    const untitled = await reviewTitle(undefined, { phase: 1, type: 'strategic' });
    expect(untitled.title).toBe(`Review of phase 1 (strategic) of run ${untitled.runId}`);
  });
});
