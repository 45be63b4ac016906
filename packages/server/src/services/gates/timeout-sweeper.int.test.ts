import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeClock } from 'gatehouse-hitl-core';
import { createSqliteStore } from 'gatehouse-hitl-store';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createInProcessBus } from '../../events/bus.js';
import { decideTestGate, insertTestRun, openTestGate, useTestPolicy } from '../../testing/gates.js';
import { approveTestPlan } from '../../testing/runs.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const HOUR = 3_600_000;

describe.each(dialects)('gate timeouts on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 60_000 } });
    await useTestPolicy(test);
  }

  async function gateOf(gateId: string) {
    return test.store.read((tx) => tx.getGate(gateId));
  }

  async function kinds(subject: string) {
    return (await test.services.audit.query({ subject })).items.map((event) => event.kind);
  }

  it('denies at the deadline exactly once and frees the run', async () => {
    await start();
    const run = await insertTestRun(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, { runId: run.id, tool: 't_deny', args: {} });
    test.clock.advance(59_999);
    expect(await test.services.timeouts.sweepOnce()).toBe(0);
    test.clock.advance(1);
    const fired = await Promise.all([test.services.timeouts.sweepOnce(), test.services.timeouts.sweepOnce()]);
    expect(fired[0] + fired[1]).toBe(1);
    expect(await test.services.timeouts.sweepOnce()).toBe(0);
    const gate = await gateOf(gateId);
    expect(gate).toMatchObject({ status: 'expired', decision: { decidedBy: 'system:timeout' } });
    expect(await kinds(gateId)).toEqual(['gate.opened', 'gate.expired']);
    expect((await test.store.read((tx) => tx.getRun(run.id)))?.status).toBe('running');
    const waited = await test.app.inject({
      method: 'GET',
      url: `/v1/gates/${gateId}/wait?timeoutMs=0`,
      headers: bearer(test.tokens.agent),
    });
    expect(waited.json().outcome).toBe('timed_out');
  });

  it('escalates along the chain with a new deadline each time, then expires', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 't_escalate', args: {} });
    test.clock.advance(60_000);
    expect(await test.services.timeouts.sweepOnce()).toBe(1);
    expect(await gateOf(gateId)).toMatchObject({
      status: 'pending',
      minRole: 'tech_lead',
      timeoutAt: test.clock.now() + HOUR,
    });
    const developer = await decideTestGate(test, test.tokens.developer, gateId, { option: 'approve' });
    expect(developer.json().error.code).toBe('ROLE_TOO_LOW');
    expect(await test.services.timeouts.sweepOnce()).toBe(0);
    test.clock.advance(HOUR);
    expect(await test.services.timeouts.sweepOnce()).toBe(1);
    expect((await gateOf(gateId))?.minRole).toBe('admin');
    test.clock.advance(HOUR);
    expect(await test.services.timeouts.sweepOnce()).toBe(1);
    expect((await gateOf(gateId))?.status).toBe('expired');
    expect(await kinds(gateId)).toEqual(['gate.opened', 'gate.escalated', 'gate.escalated', 'gate.expired']);
    const events = await test.store.listStreamEvents({ afterSeq: 0 });
    expect(events.filter((e) => e.gateId === gateId).map((e) => e.type)).toEqual([
      'gate.opened',
      'gate.escalated',
      'gate.escalated',
      'gate.expired',
    ]);
  });

  it('proceeds where the gate allows it, approved by system:timeout, once', async () => {
    await start();
    const gateId = await openTestGate(test, { tool: 't_proceed', args: {} });
    test.clock.advance(61_000);
    expect(await test.services.timeouts.sweepOnce()).toBe(1);
    expect(await test.services.timeouts.sweepOnce()).toBe(0);
    expect(await gateOf(gateId)).toMatchObject({
      status: 'approved',
      decision: { decidedBy: 'system:timeout' },
    });
    expect(await kinds(gateId)).toEqual(['gate.opened', 'gate.auto_approved']);
    const late = await decideTestGate(test, test.tokens.admin, gateId, { option: 'reject' });
    expect(late.json().error.code).toBe('GATE_EXPIRED');
  });

  it('never lets a destructive action proceed on timeout', async () => {
    await start();
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/gates',
      headers: bearer(test.tokens.agent),
      payload: { tool: 'delete_file', args: { path: 'src' }, timeoutSeconds: 5, timeoutAction: 'proceed' },
    });
    expect(response.json().error.code).toBe('TIMEOUT_ACTION_NOT_ALLOWED');
  });

  it('sweeps by itself once the app is ready', async () => {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { sweepIntervalMs: 20 } });
    await useTestPolicy(test);
    const gateId = await openTestGate(test, { tool: 't_deny', args: {} });
    test.clock.advance(60_000);
    for (let i = 0; i < 100 && (await gateOf(gateId))?.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await gateOf(gateId))?.status).toBe('expired');
    expect(await kinds(gateId)).toEqual(['gate.opened', 'gate.expired']);
  });
});

describe('gate timeouts across a restart', () => {
  it('fires each due timeout once after the server comes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-restart-'));
    const clock = createFakeClock();
    const config = loadConfig({}, { dataDir: dir, port: 0, sweepIntervalMs: 60_000 });
    const file = join(dir, 'gatehouse.db');
    async function boot() {
      const store = await createSqliteStore({ file, clock });
      const app = await buildApp({ store, bus: createInProcessBus(), clock, config });
      await app.ready();
      return { app, store };
    }
    try {
      const first = await boot();
      await first.store.transaction((tx) =>
        tx.insertAgent({ id: 'agent_r', name: 'r', profile: null, autonomy: null, createdAt: clock.now() }),
      );
      const gates = await Promise.all(
        Array.from({ length: 20 }, () =>
          first.app.gatehouse.services.gates.request(
            { kind: 'agent', id: 'agent_r' },
            { tool: 'shell', args: { command: 'x' }, timeoutSeconds: 30, timeoutAction: 'deny' },
          ),
        ),
      );
      await first.app.close();
      await first.store.close();

      clock.advance(31_000);
      const second = await boot();
      const fired = await second.app.gatehouse.services.timeouts.sweepOnce();
      const again = await second.app.gatehouse.services.timeouts.sweepOnce();
      const expired = await second.store.read((tx) => tx.countGates({ status: 'expired' }));
      const audit = await second.store.queryAudit({ kind: 'gate.expired', limit: 500 });
      await second.app.close();
      await second.store.close();
      expect(gates.every((g) => g.outcome === 'gated')).toBe(true);
      expect(fired + again).toBeLessThanOrEqual(20);
      expect(expired).toBe(20);
      expect(audit.items).toHaveLength(20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
