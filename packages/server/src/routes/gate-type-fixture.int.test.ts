import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { GateDecided } from '../services/gates/gate-ended.js';
import { decideTestGate, openTestGate, useTestPolicy } from '../testing/gates.js';
import { releaseFreeze } from '../testing/release-freeze-gate.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('a gate type added as one spec on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start(): Promise<GateDecided[]> {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    await useTestPolicy(test);
    test.services.gateTypes.register(releaseFreeze.definition, releaseFreeze);
    const decided: GateDecided[] = [];
    test.services.gates.onGateDecided(async (_tools, event) => {
      if (event.gate.type === releaseFreeze.definition.type) decided.push(event);
    });
    return decided;
  }

  const release = {
    tool: 'release',
    args: { tag: 'v2.4.0' },
    gateType: 'release_freeze',
    context: { version: '2.4.0' },
  };

  it('opens through the API with its briefing and options, and its decision reaches a registered handler', async () => {
    const decided = await start();
    const gateId = await openTestGate(test, release);

    const view = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}`,
      headers: bearer(test.tokens.developer),
    });
    expect(view.statusCode).toBe(200);
    const { gate, briefing } = view.json();
    expect(gate).toMatchObject({ type: 'release_freeze', status: 'pending', steerable: false });
    expect(briefing.summary).toMatch(/wants to release 2\.4\.0 during the freeze$/);
    expect(briefing.options.map((option: { id: string }) => option.id)).toEqual([
      'approve',
      'reject',
      'postpone',
    ]);

    const answer = await decideTestGate(test, test.tokens.developer, gateId, { option: 'postpone' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().gate).toMatchObject({ status: 'resolved', decision: { option: 'postpone' } });
    expect(decided.map((event) => [event.gate.id, event.gate.decision?.option])).toEqual([
      [gateId, 'postpone'],
    ]);
  });

  it('takes the rest of its behaviour from the spec: never batched, withdrawable by its agent', async () => {
    await start();
    const batched = await openTestGate(test, release, { key: 'release-1' });
    const batch = await test.app.inject({
      method: 'POST',
      url: '/v1/gates/decide-batch',
      headers: bearer(test.tokens.developer),
      payload: { gateIds: [batched], option: 'approve' },
    });
    expect(batch.json().results[0]).toMatchObject({
      ok: false,
      error: { code: 'BATCH_NOT_ALLOWED', details: { rule: 'gate_type' } },
    });

    const withdrawn = await test.app.inject({
      method: 'POST',
      url: `/v1/gates/${batched}/withdraw`,
      headers: bearer(test.tokens.agent),
      payload: {},
    });
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().gate.status).toBe('cancelled');
  });
});
