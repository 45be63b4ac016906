import type { Context, Meter, Span, SpanContext, SpanOptions, Tracer } from '@opentelemetry/api';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

/** Where spans and metrics go (docs/tracing.md); null in the config when tracing is off. */
export interface TelemetryConfig {
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): traces go to `/v1/traces`, metrics to `/v1/metrics`. */
  endpoint: string;
  /** The `service.name` resource attribute (OTEL_SERVICE_NAME). @default gatehouse */
  serviceName: string;
  /** How often metrics are pushed (OTEL_METRIC_EXPORT_INTERVAL). @default 60000 */
  metricIntervalMs: number;
}

/** Exporters handed in by the embedding program or a test, in place of OTLP. */
export interface TelemetryOptions {
  /** Gets every span as it ends (a test's in-memory exporter). */
  spanExporter?: SpanExporter;
  /** Reads the metrics (a test's in-memory reader). */
  metricReader?: IMetricReader;
  /** @default the config's service name, else gatehouse */
  serviceName?: string;
}

/** The server's tracer and meter; the app has none (null) while tracing is off. */
export interface Telemetry {
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** The context W3C `traceparent`/`tracestate` headers carry; the root context when absent or malformed. */
  extract(headers: Readonly<Record<string, unknown>>): Context;
  /** The `traceparent` (and `tracestate`) that name `spanContext`. */
  headersOf(spanContext: SpanContext): Record<string, string>;
  /** Starts a span under `parent` whose span id is `spanId`, so a span announced earlier is recorded under its id. */
  startSpanWithId(spanId: string, name: string, options: SpanOptions, parent: Context): Span;
  /** Keeps `work` (spans recorded in the background) for `settled`. */
  track(work: Promise<unknown>): void;
  /** Resolves once the background work tracked so far is done. */
  settled(): Promise<void>;
  /** Exports what is buffered, then stops the exporters. */
  shutdown(): Promise<void>;
}

/**
 * The server's telemetry when the config or `options` ask for it, else null. The SDK is loaded only
 * then, so a server without tracing never loads it.
 */
export async function startTelemetry(
  config: TelemetryConfig | null,
  options: TelemetryOptions | undefined,
): Promise<Telemetry | null> {
  if (config === null && options === undefined) return null;
  const { createSdkTelemetry } = await import('./sdk-telemetry.js');
  return createSdkTelemetry(config, options ?? {});
}
