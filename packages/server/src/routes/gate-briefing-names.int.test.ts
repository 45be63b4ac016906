import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestGate } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('the briefing names the agent on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  it('by its registered name, not its id nor the name it gives itself', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    const gateId = await openTestGate(test, {
      tool: 'shell',
      args: { command: 'rm -rf build' },
      context: { agent: 'Trusted Admin Bot' },
    });
    const response = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.developer),
    });
    expect(response.statusCode).toBe(200);
    const { briefing } = response.json();
    expect(briefing.agent).toBe('alpha');
    const text = `${briefing.summary}\n${briefing.details}`;
    expect(text).toContain('alpha');
    expect(text).not.toContain(test.ids.agentId);
    expect(text).not.toContain('Trusted Admin Bot');
  });
});
