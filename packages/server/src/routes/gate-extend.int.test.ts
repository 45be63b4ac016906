import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestPolicy } from '../testing/gates.js';
import type { HttpResult } from '../testing/http-client.js';
import { type FakeClockApp, startFakeClockApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const HOUR_MS = 3_600_000;

/** An hour's deadline that goes ahead when nobody answers, one only tech leads may touch, one with none. */
const EXTEND_POLICY = `name: extend-tests
defaultAction: gate
rules:
  - id: hour-proceed
    priority: 500
    match: { tools: [tidy_cache] }
    action: { gate: { timeoutSeconds: 3600, timeoutAction: proceed, risk: low } }
    reason: Goes ahead after an hour.
  - id: leads-only
    priority: 500
    match: { tools: [rotate_keys] }
    action: { gate: { timeoutSeconds: 3600, timeoutAction: deny, minRole: tech_lead } }
    reason: Key rotation is for tech leads.
`;

describe.each(dialects)('snoozing a gate over HTTP on %s', (dialect) => {
  let live: FakeClockApp;
  afterEach(async () => {
    await live?.close();
  });

  async function start() {
    live = await startFakeClockApp(dialect);
    await useTestPolicy(live.test, EXTEND_POLICY);
  }

  async function openGate(tool: string): Promise<{ id: string; timeoutAt: number | null }> {
    const answer = await live.client.call('POST', '/v1/gates', {
      token: live.test.tokens.agent,
      body: { tool, args: { n: Math.random() } },
    });
    expect(answer.body.outcome, JSON.stringify(answer.body)).toBe('gated');
    return answer.body.gate;
  }

  function extend(gateId: string, seconds: number, token = live.test.tokens.developer): Promise<HttpResult> {
    return live.client.call('POST', `/v1/gates/${gateId}/extend`, { token, body: { seconds } });
  }

  async function stored(gateId: string) {
    return live.test.store.read((tx) => tx.getGate(gateId));
  }

  async function auditKinds(gateId: string): Promise<string[]> {
    return (await live.test.services.audit.query({ subject: gateId })).items.map((event) => event.kind);
  }

  it('refuses to move a deadline earlier, naming seconds, so a gate cannot be made to time out at once', async () => {
    await start();
    const gate = await openGate('tidy_cache');
    expect(gate.timeoutAt).toBe(live.test.clock.now() + HOUR_MS);

    const sooner = await extend(gate.id, 1);
    expect(sooner.status).toBe(400);
    expect(sooner.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'seconds' } });
    expect(sooner.body.error.message).toMatch(/^seconds: .*at least 3600/);
    expect((await stored(gate.id))?.timeoutAt).toBe(gate.timeoutAt);
    expect(await auditKinds(gate.id)).toEqual(['gate.opened']);

    live.test.clock.advance(2_000);
    await live.test.services.timeouts.sweepOnce();
    expect((await stored(gate.id))?.status).toBe('pending');
  });

  it('moves a deadline later or leaves it where it is, counting seconds from now', async () => {
    await start();
    const gate = await openGate('tidy_cache');
    live.test.clock.advance(600_000);

    expect((await extend(gate.id, 2999)).body.error.details.field).toBe('seconds');
    const same = await extend(gate.id, 3000);
    expect(same.status).toBe(200);
    expect(same.body.gate.timeoutAt).toBe(gate.timeoutAt);
    const later = await extend(gate.id, 7200);
    expect(later.body.gate.timeoutAt).toBe(live.test.clock.now() + 2 * HOUR_MS);
    expect((await stored(gate.id))?.timeoutAt).toBe(live.test.clock.now() + 2 * HOUR_MS);
    expect(await auditKinds(gate.id)).toEqual(['gate.opened', 'gate.extended', 'gate.extended']);
  });

  it('refuses to give a deadline to a gate that waits for a person without one', async () => {
    await start();
    const gate = await openGate('anything_else');
    expect(gate.timeoutAt).toBeNull();
    const answer = await extend(gate.id, 60);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'seconds' } });
    expect((await stored(gate.id))?.timeoutAt).toBeNull();
    expect(await auditKinds(gate.id)).toEqual(['gate.opened']);
  });

  it('never lowers a deadline over any sequence of snoozes (property)', async () => {
    await start();
    // At most 5 steps of 10 minutes: the first hour's deadline is never reached.
    const step = fc.record({
      advanceMs: fc.integer({ min: 0, max: 600_000 }),
      seconds: fc.integer({ min: 1, max: 7200 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const gate = await openGate('tidy_cache');
        let deadline = gate.timeoutAt as number;
        for (const { advanceMs, seconds } of steps) {
          live.test.clock.advance(advanceMs);
          const wanted = live.test.clock.now() + seconds * 1000;
          const answer = await extend(gate.id, seconds);
          expect(answer.status).toBe(wanted >= deadline ? 200 : 400);
          deadline = Math.max(deadline, wanted);
          expect((await stored(gate.id))?.timeoutAt).toBe(deadline);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('refuses a snooze from someone below the gate’s minimum role and leaves the deadline', async () => {
    await start();
    const gate = await openGate('rotate_keys');
    const developer = await extend(gate.id, 7200);
    expect(developer.status).toBe(403);
    expect(developer.body.error).toMatchObject({
      code: 'ROLE_TOO_LOW',
      details: { required: 'tech_lead', actual: 'developer' },
    });
    expect((await stored(gate.id))?.timeoutAt).toBe(gate.timeoutAt);
    expect(await auditKinds(gate.id)).toEqual(['gate.opened']);

    const lead = await extend(gate.id, 7200, live.test.tokens.techLead);
    expect(lead.status).toBe(200);
    expect(lead.body.gate.timeoutAt).toBe(live.test.clock.now() + 2 * HOUR_MS);
  });
});
