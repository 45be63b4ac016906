import { setTimeout as sleep } from 'node:timers/promises';
import { type MetricData, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate, useTestPolicy } from '../testing/gates.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

/** Collects on demand, exports nowhere: what a test reads the meter through. */
class InMemoryMetricReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}

  async metrics(): Promise<MetricData[]> {
    const { resourceMetrics } = await this.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  }
}

describe.each(dialects)('OpenTelemetry metrics on %s', { timeout: 60_000 }, (dialect) => {
  let test: TestApp<{ now(): number }>;
  afterEach(async () => {
    await test?.close();
  });

  it('exports the gate counts, the decision wait, request durations and the event-loop delay through the meter', async () => {
    const reader = new InMemoryMetricReader();
    test = await createTestApp({ dialect, telemetry: { metricReader: reader } });
    await useTestPolicy(test);
    const decided = await openTestGate(test, { tool: 'shell', args: { command: 'make deploy' } });
    await openTestGate(test, { tool: 'shell', args: { command: 'make clean' } });
    const decision = await decideTestGate(test, test.tokens.developer, decided, { option: 'approve' });
    expect(decision.statusCode).toBe(200);
    const read = await test.app.inject({
      method: 'GET',
      url: '/v1/gates',
      headers: bearer(test.tokens.viewer),
    });
    expect(read.statusCode).toBe(200);
    await test.services.metrics.settled();
    await sleep(50); // at least two samples of the event loop

    const metrics = await reader.metrics();
    const byName = (name: string) => {
      const metric = metrics.find((entry) => entry.descriptor.name === name);
      if (metric === undefined)
        throw new Error(`no metric ${name} in ${metrics.map((m) => m.descriptor.name)}`);
      return metric.dataPoints;
    };
    const opened = byName('gatehouse.gates.opened');
    expect(opened.reduce((sum, point) => sum + Number(point.value), 0)).toBe(2);
    expect(byName('gatehouse.gates.decided').map((point) => [point.attributes, point.value])).toEqual([
      [expect.objectContaining({ 'gatehouse.gate.outcome': 'approved' }), 1],
    ]);
    expect(byName('gatehouse.gates.pending').map((point) => point.value)).toEqual([1]);
    const wait = byName('gatehouse.gate.decision.duration');
    expect(wait.map((point) => (point.value as { count: number }).count)).toEqual([1]);
    const durations = byName('http.server.request.duration');
    const listed = durations.find(
      (point) =>
        point.attributes['http.route'] === '/v1/gates' && point.attributes['http.request.method'] === 'GET',
    );
    if (listed === undefined) throw new Error('no duration of GET /v1/gates');
    expect(listed.attributes['http.response.status_code']).toBe(200);
    expect((listed.value as { count: number }).count).toBe(1);
    const requests = byName('gatehouse.http.requests');
    expect(requests.some((point) => point.attributes['http.route'] === '/v1/gates/:id/decide')).toBe(true);
    const loop = byName('gatehouse.event_loop.delay').map(
      (point) => (point.value as { count: number }).count,
    );
    expect(loop).toHaveLength(1);
    expect(loop[0]).toBeGreaterThanOrEqual(2);
  });
});
