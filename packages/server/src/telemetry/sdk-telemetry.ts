import {
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type SpanContext,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  type IMetricReader,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import {
  BatchSpanProcessor,
  type IdGenerator,
  RandomIdGenerator,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Telemetry, TelemetryConfig, TelemetryOptions } from './telemetry.js';

const SCOPE = 'gatehouse-server';

/** Random ids, except the one span id set just before a span is started under a known id. */
class PresetSpanIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  next: string | null = null;
  generateTraceId(): string {
    return this.random.generateTraceId();
  }
  generateSpanId(): string {
    const preset = this.next;
    this.next = null;
    return preset ?? this.random.generateSpanId();
  }
}

async function spanProcessors(
  config: TelemetryConfig | null,
  options: TelemetryOptions,
): Promise<SpanProcessor[]> {
  if (options.spanExporter !== undefined)
    return [new SimpleSpanProcessor({ exporter: options.spanExporter })];
  if (config === null) return [];
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const url = `${config.endpoint.replace(/\/+$/, '')}/v1/traces`;
  // The exporter is built on the previous SDK major; spans of this one have the same shape.
  return [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) as unknown as SpanExporter })];
}

async function metricReaders(
  config: TelemetryConfig | null,
  options: TelemetryOptions,
): Promise<IMetricReader[]> {
  if (options.metricReader !== undefined) return [options.metricReader];
  if (config === null) return [];
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
  const url = `${config.endpoint.replace(/\/+$/, '')}/v1/metrics`;
  const exporter = new OTLPMetricExporter({ url }) as unknown as PushMetricExporter;
  return [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: config.metricIntervalMs })];
}

/** Tracer and meter providers of their own, never registered globally: each app (and test) has its own. */
export async function createSdkTelemetry(
  config: TelemetryConfig | null,
  options: TelemetryOptions,
): Promise<Telemetry> {
  const resource = resourceFromAttributes({
    'service.name': options.serviceName ?? config?.serviceName ?? 'gatehouse',
  });
  const ids = new PresetSpanIds();
  const tracerProvider = new TracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: await spanProcessors(config, options),
  });
  const meterProvider = new MeterProvider({ resource, readers: await metricReaders(config, options) });
  const tracer = tracerProvider.getTracer(SCOPE);
  const propagator = new W3CTraceContextPropagator();
  let pending: Promise<unknown> = Promise.resolve();
  return {
    tracer,
    meter: meterProvider.getMeter(SCOPE),
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
    headersOf(spanContext: SpanContext) {
      const carrier: Record<string, string> = {};
      const context: Context = trace.setSpanContext(ROOT_CONTEXT, spanContext);
      propagator.inject(context, carrier, defaultTextMapSetter);
      return carrier;
    },
    startSpanWithId(spanId, name, spanOptions, parent) {
      ids.next = spanId;
      try {
        return tracer.startSpan(name, spanOptions, parent);
      } finally {
        ids.next = null;
      }
    },
    track(work) {
      pending = Promise.all([pending, work.catch(() => {})]);
    },
    settled: async () => {
      await pending;
    },
    async shutdown() {
      await pending;
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
