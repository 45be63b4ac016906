import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestGate, useTestPolicy } from '../testing/gates.js';
import { releaseFreeze } from '../testing/release-freeze-gate.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('a gate list names each gate by its page’s headline on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function read(url: string) {
    const response = await test.app.inject({ method: 'GET', url, headers: bearer(test.tokens.developer) });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('the briefing’s summary with the agent’s registered name, its own title kept beside it', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(test);
    test.services.gateTypes.register(releaseFreeze.definition, releaseFreeze);
    const planned = await openTestGate(test, {
      tool: 'shell',
      args: { command: 'make plan' },
      title: 'plan',
    });
    const custom = await openTestGate(test, {
      tool: 'release',
      args: { tag: 'v2.4.0' },
      gateType: 'release_freeze',
      context: { version: '2.4.0' },
      title: 'budget',
    });

    const page = await read('/v1/gates?status=pending');
    const listed = new Map(page.items.map((item: { id: string }) => [item.id, item]));
    for (const id of [planned, custom]) {
      const view = await read(`/v1/gates/${id}`);
      expect(view.headline).toBe(view.briefing.summary);
      expect(listed.get(id)).toMatchObject({ id, headline: view.headline, title: view.gate.title });
    }
    expect(listed.get(planned)).toMatchObject({
      title: 'plan',
      headline: 'alpha wants to run shell: make plan',
    });
    expect(listed.get(custom)).toMatchObject({ title: 'budget' });
    expect((listed.get(custom) as { headline: string }).headline).toMatch(
      /^alpha wants to release 2\.4\.0 during the freeze$/,
    );
  });
});
