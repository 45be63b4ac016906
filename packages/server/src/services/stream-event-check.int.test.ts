import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { commit } from './commit.js';

describe('stream events checked against the protocol', () => {
  let test: TestApp<{ now(): number }> | null = null;
  afterEach(async () => {
    await test?.close();
    test = null;
  });

  it('fails the change, storing nothing, when the test kit sees a malformed event', async () => {
    test = await createTestApp({ dialect: 'sqlite' });
    const before = await test.store.latestStreamSeq();
    const malformed = commit(test.ctx, (tools) =>
      tools.emit({
        type: 'run.status',
        runId: 'run_x',
        agentId: null,
        gateId: null,
        data: { status: 'asleep' },
      }),
    );
    await expect(malformed).rejects.toThrow('stream event run.status: data.status');
    expect(await test.store.latestStreamSeq()).toBe(before);
  });

  it('stores the same event unchecked where the check is off (production)', async () => {
    test = await createTestApp({ dialect: 'sqlite', config: { checkStreamEvents: false } });
    await commit(test.ctx, (tools) =>
      tools.emit({
        type: 'run.status',
        runId: 'run_x',
        agentId: null,
        gateId: null,
        data: { status: 'asleep' },
      }),
    );
    expect(await test.store.latestStreamSeq()).toBeGreaterThan(0);
  });
});
