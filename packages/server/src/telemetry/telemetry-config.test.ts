import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

describe('the tracing settings', () => {
  it('are off without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(loadConfig({}).telemetry).toBeNull();
  });

  it('take the collector, the service name and the metric interval from the standard variables', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'gatehouse-eu',
      OTEL_METRIC_EXPORT_INTERVAL: '15000',
    };
    expect(loadConfig(env).telemetry).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'gatehouse-eu',
      metricIntervalMs: 15_000,
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).telemetry).toMatchObject({
      serviceName: 'gatehouse',
      metricIntervalMs: 60_000,
    });
  });

  it('stay off with OTEL_SDK_DISABLED=true, even with an endpoint', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' };
    expect(loadConfig(env).telemetry).toBeNull();
  });

  it('refuse an endpoint that is not a URL, naming the variable', () => {
    for (const endpoint of ['collector:4318', 'not a url', 'ftp://collector:4318']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        /^invalid environment: OTEL_EXPORTER_OTLP_ENDPOINT: /,
      );
    }
  });
});
