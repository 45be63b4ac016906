import type { ObservableResult } from '@opentelemetry/api';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { EVENT_LOOP_DELAY_HELP } from './event-loop-delay.js';
import type { Counter } from './prometheus.js';

/** The counters /metrics renders, read again by the OpenTelemetry meter rather than counted twice. */
export interface CountedMetrics {
  http: Pick<Counter, 'entries'>;
  opened: Counter;
  decided: Counter;
  requests: Counter;
  /** Gates waiting for a decision now, from the store. */
  pending(): Promise<number>;
  decisionBuckets: readonly number[];
  eventLoopBuckets: readonly number[];
}

function observeCounter(counter: Pick<Counter, 'entries'>, rename: Record<string, string>) {
  return (result: ObservableResult) => {
    for (const { labels, value } of counter.entries()) {
      const attributes: Record<string, string> = {};
      for (const [key, label] of Object.entries(labels)) attributes[rename[key] ?? key] = label;
      result.observe(value, attributes);
    }
  };
}

/**
 * The same figures as /metrics through the OpenTelemetry meter (docs/tracing.md): observable counters
 * over the Prometheus counters, the pending gauge, and the decision wait and event-loop delay
 * histograms, which the caller records next to its own.
 */
export function exportMetrics(telemetry: Telemetry, counted: CountedMetrics) {
  const { meter } = telemetry;
  meter
    .createObservableCounter('gatehouse.gates.opened', { description: 'Gates opened, by gate type.' })
    .addCallback(observeCounter(counted.opened, { type: 'gatehouse.gate.type' }));
  meter
    .createObservableCounter('gatehouse.gates.decided', {
      description: 'Gates ended, by gate type and outcome.',
    })
    .addCallback(
      observeCounter(counted.decided, { type: 'gatehouse.gate.type', outcome: 'gatehouse.gate.outcome' }),
    );
  meter
    .createObservableCounter('gatehouse.requests', {
      description: 'Agent requests by outcome (allowed, denied, gated).',
    })
    .addCallback(observeCounter(counted.requests, { outcome: 'gatehouse.request.outcome' }));
  meter
    .createObservableCounter('gatehouse.http.requests', {
      description: 'HTTP requests by method, route and status.',
    })
    .addCallback(
      observeCounter(counted.http, {
        method: 'http.request.method',
        route: 'http.route',
        status: 'http.response.status_code',
      }),
    );
  meter
    .createObservableGauge('gatehouse.gates.pending', { description: 'Gates waiting for a decision now.' })
    .addCallback(async (result) => {
      result.observe(await counted.pending());
    });
  const wait = meter.createHistogram('gatehouse.gate.decision.duration', {
    description: 'Time from a gate opening to a person deciding it, by gate type.',
    unit: 's',
    advice: { explicitBucketBoundaries: [...counted.decisionBuckets] },
  });
  const loopDelay = meter.createHistogram('gatehouse.event_loop.delay', {
    description: EVENT_LOOP_DELAY_HELP,
    unit: 's',
    advice: { explicitBucketBoundaries: [...counted.eventLoopBuckets] },
  });
  return {
    decisionWait(seconds: number, type: string): void {
      wait.record(seconds, { 'gatehouse.gate.type': type });
    },
    eventLoopDelay(seconds: number): void {
      loopDelay.record(seconds);
    },
  };
}
