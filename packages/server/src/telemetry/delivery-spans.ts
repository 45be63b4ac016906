import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Telemetry } from './telemetry.js';

/**
 * Runs one delivery attempt (a webhook, a notice) in a span of its own when tracing is on; the
 * attempt's result adds its outcome to the span. Without telemetry it only runs `work`.
 */
export async function deliverySpan<T>(
  telemetry: Telemetry | null,
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  outcomeOf: (result: T) => { attributes: Attributes; ok: boolean },
): Promise<T> {
  if (telemetry === null) return work();
  const span = telemetry.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  try {
    const result = await work();
    const outcome = outcomeOf(result);
    span.setAttributes(outcome.attributes);
    span.setStatus({ code: outcome.ok ? SpanStatusCode.OK : SpanStatusCode.ERROR });
    return result;
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
