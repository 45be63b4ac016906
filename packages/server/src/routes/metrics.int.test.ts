import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createFakeClock,
  createGateCatalog,
  type Gate,
  type GateStatus,
  openGate,
} from 'gatehouse-hitl-core';
import type { StreamEventName } from 'gatehouse-hitl-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { commit } from '../services/commit.js';
import { postGate, useTestPolicy } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const catalog = createGateCatalog();

describe.each(dialects)('metrics on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  // These tests feed the metrics synthetic events (empty data), so the stream-event check is off.
  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock(), config: { checkStreamEvents: false } });
  }

  /** A gate opened now and, unless pending, ended `afterSeconds` later by `by`. */
  async function insertGate(
    id: string,
    options: { type?: string; agentId?: string; status?: GateStatus; afterSeconds?: number; by?: string },
  ): Promise<Gate> {
    const opened = openGate(
      {
        type: options.type ?? 'tool_call',
        agentId: options.agentId ?? test.ids.agentId,
        requestedBy: `agent:${options.agentId ?? test.ids.agentId}`,
      },
      { catalog, id, now: test.clock.now() },
    );
    const status = options.status ?? 'pending';
    const gate: Gate =
      status === 'pending'
        ? opened
        : {
            ...opened,
            status,
            decision: {
              option: status === 'approved' ? 'approve' : 'reject',
              outcome: status,
              decidedBy: options.by ?? `user:${test.ids.developerId}`,
              affectedArtifacts: [],
              decidedAt: opened.createdAt + (options.afterSeconds ?? 0) * 1000,
            },
          };
    await test.store.transaction((tx) => tx.insertGate(gate));
    return gate;
  }

  function emit(type: StreamEventName, gateId: string | null) {
    return commit(test.ctx, ({ emit: send }) =>
      send({ type, runId: null, agentId: test.ids.agentId, gateId, data: {} }),
    );
  }

  it('serves Prometheus text to anyone, counting HTTP requests by route pattern', async () => {
    await start();
    await test.app.inject({
      method: 'GET',
      url: `/v1/agents/${test.ids.agentId}`,
      headers: bearer(test.tokens.viewer),
    });
    const response = await test.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain(
      'gatehouse_http_requests_total{method="GET",route="/v1/agents/:id",status="200"} 1',
    );
    expect(response.body).toContain('gatehouse_gates_pending 0');
  });

  it('times each HTTP response by route pattern, in seconds', async () => {
    await start();
    for (let i = 0; i < 3; i++) {
      await test.app.inject({
        method: 'GET',
        url: `/v1/agents/${test.ids.agentId}`,
        headers: bearer(test.tokens.viewer),
      });
    }
    const { body } = await test.app.inject({ method: 'GET', url: '/metrics' });
    const series = 'method="GET",route="/v1/agents/:id",status="200"';
    expect(body).toContain('# TYPE gatehouse_http_request_duration_seconds histogram');
    expect(body).toContain(`gatehouse_http_request_duration_seconds_count{${series}} 3`);
    expect(body).toContain(`gatehouse_http_request_duration_seconds_bucket{le="60",${series}} 3`);
    const sum = Number(
      new RegExp(`gatehouse_http_request_duration_seconds_sum\\{${series}\\} (\\S+)`).exec(body)?.[1],
    );
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(30);
  });

  it('shows a stall of the event loop as a late sample', async () => {
    await start();
    await sleep(60);
    const until = performance.now() + 150;
    while (performance.now() < until) {
      // holds the event loop, as a long synchronous task would
    }
    await sleep(60);
    const { body } = await test.app.inject({ method: 'GET', url: '/metrics' });
    const count = (pattern: string) => Number(new RegExp(`^${pattern} (\\d+)$`, 'm').exec(body)?.[1]);
    const samples = count('gatehouse_event_loop_delay_seconds_count');
    expect(samples).toBeGreaterThanOrEqual(3);
    // At least one sample came 0.1 s late or more: the stall.
    expect(count('gatehouse_event_loop_delay_seconds_bucket\\{le="0.1"\\}')).toBeLessThan(samples);
  });

  it('counts gates, outcomes and time to decision from bus events, and requests answered at once', async () => {
    await start();
    await insertGate('gate_a', { status: 'approved', afterSeconds: 30 });
    await insertGate('gate_b', { type: 'destructive_action', status: 'rejected', afterSeconds: 2 });
    await insertGate('gate_c', {});
    for (const id of ['gate_a', 'gate_b', 'gate_c']) await emit('gate.opened', id);
    await emit('gate.decided', 'gate_a');
    await emit('gate.decided', 'gate_b');
    await useTestPolicy(test);
    await postGate(test, { tool: 'read_file', args: { path: 'a.txt' } });
    await postGate(test, { tool: 'drop_database', args: { name: 'prod' } });
    // A retry under the same key gets the first answer again: it is not counted twice.
    await postGate(test, { tool: 'read_file', args: { path: 'b.txt' } }, { key: 'retried' });
    await postGate(test, { tool: 'read_file', args: { path: 'b.txt' } }, { key: 'retried' });
    await test.services.metrics.settled();
    const text = await test.services.metrics.render();
    expect(text).toContain('gatehouse_gates_opened_total{type="tool_call"} 2');
    expect(text).toContain('gatehouse_gates_opened_total{type="destructive_action"} 1');
    expect(text).toContain('gatehouse_gates_decided_total{outcome="approved",type="tool_call"} 1');
    expect(text).toContain('gatehouse_gates_decided_total{outcome="rejected",type="destructive_action"} 1');
    expect(text).toContain('gatehouse_requests_total{outcome="gated"} 3');
    expect(text).toContain('gatehouse_requests_total{outcome="allowed"} 2');
    expect(text).toContain('gatehouse_requests_total{outcome="denied"} 1');
    expect(text).toContain('gatehouse_gate_decision_seconds_bucket{le="30",type="tool_call"} 1');
    expect(text).toContain('gatehouse_gate_decision_seconds_bucket{le="15",type="tool_call"} 0');
    expect(text).toContain('gatehouse_gates_pending 1');
    expect(text).toContain('gatehouse_escalation_rate 0.5');
    expect(text).toContain('gatehouse_approval_rate 0.5');
  });

  it('counts a confidence escalation from the gate it opened', async () => {
    await start();
    await insertGate('gate_low', { type: 'confidence_threshold' });
    await insertGate('gate_tool', {});
    for (const id of ['gate_low', 'gate_tool']) await emit('gate.opened', id);
    await test.services.metrics.settled();
    expect(await test.services.metrics.render()).toContain('gatehouse_confidence_escalations_total 1');
  });

  it('summarises escalation rate, approval rate and time to decision from the store, per agent and per type', async () => {
    await start();
    await insertGate('gate_1', { status: 'approved', afterSeconds: 10 });
    await insertGate('gate_2', { status: 'approved', afterSeconds: 20 });
    await insertGate('gate_3', { status: 'rejected', afterSeconds: 30 });
    await insertGate('gate_4', { status: 'expired', by: 'system:timeout', afterSeconds: 600 });
    await insertGate('gate_5', { agentId: test.ids.otherAgentId, type: 'phase_review' });
    for (let i = 0; i < 5; i += 1) {
      await commit(test.ctx, ({ audit }) =>
        audit({ kind: 'request.allowed', actor: `agent:${test.ids.agentId}`, subject: null, data: {} }),
      );
    }
    const response = await test.app.inject({
      method: 'GET',
      url: '/v1/metrics/summary',
      headers: bearer(test.tokens.viewer),
    });
    expect(response.statusCode).toBe(200);
    const summary = response.json();
    expect(summary.totals).toEqual(
      expect.objectContaining({
        gates: 5,
        pending: 1,
        decided: 3,
        expired: 1,
        allowed: 5,
        escalationRate: 0.5,
        approvalRate: 2 / 3,
        timeToDecision: { count: 3, medianSeconds: 20, p90Seconds: 30 },
      }),
    );
    const alpha = summary.byAgent.find((row: { agentId: string }) => row.agentId === test.ids.agentId);
    expect(alpha).toEqual(expect.objectContaining({ gates: 4, allowed: 5, escalationRate: 4 / 9 }));
    const review = summary.byType.find((row: { type: string }) => row.type === 'phase_review');
    expect(review).toEqual(expect.objectContaining({ gates: 1, pending: 1, approvalRate: null }));
    expect(summary.overTime.bucketSeconds).toBe(60);
    expect(summary.overTime.buckets).toEqual([
      expect.objectContaining({ gates: 5, pending: 1, approved: 2, rejected: 1, expired: 1 }),
    ]);
  });

  it('follows real requests and decisions through the API', async () => {
    await start();
    const agent = { ...bearer(test.tokens.agent), 'idempotency-key': 'k-1' };
    const gated = await test.app.inject({
      method: 'POST',
      url: '/v1/gates',
      headers: agent,
      payload: { tool: 'shell', args: { command: 'rm -rf build' } },
    });
    expect(gated.json().outcome).toBe('gated');
    const allowed = await test.app.inject({
      method: 'POST',
      url: '/v1/gates',
      headers: { ...agent, 'idempotency-key': 'k-2' },
      payload: { tool: 'read_file', args: { path: 'README.md' } },
    });
    expect(allowed.json().outcome).toBe('allowed');
    test.clock.advance(45_000);
    const decided = await test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gated.json().gate.id}/decide`,
      headers: bearer(test.tokens.developer),
      payload: { option: 'approve' },
    });
    expect(decided.statusCode).toBe(200);
    await test.services.metrics.settled();

    const text = (await test.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain('gatehouse_requests_total{outcome="gated"} 1');
    expect(text).toContain('gatehouse_requests_total{outcome="allowed"} 1');
    expect(text).toContain('gatehouse_gates_decided_total{outcome="approved",type="tool_call"} 1');
    expect(text).toContain('gatehouse_gate_decision_seconds_bucket{le="60",type="tool_call"} 1');
    expect(text).toContain('gatehouse_gates_pending 0');
    const summary = (
      await test.app.inject({
        method: 'GET',
        url: '/v1/metrics/summary',
        headers: bearer(test.tokens.viewer),
      })
    ).json();
    expect(summary.totals).toEqual(
      expect.objectContaining({ gates: 1, allowed: 1, escalationRate: 0.5, approvalRate: 1 }),
    );
    expect(summary.totals.timeToDecision.medianSeconds).toBe(45);
  });

  it('needs a person for the summary', async () => {
    await start();
    expect(
      (
        await test.app.inject({
          method: 'GET',
          url: '/v1/metrics/summary',
          headers: bearer(test.tokens.agent),
        })
      ).statusCode,
    ).toBe(403);
    expect((await test.app.inject({ method: 'GET', url: '/v1/metrics/summary' })).statusCode).toBe(401);
  });
});
