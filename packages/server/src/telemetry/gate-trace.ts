import { createHash } from 'node:crypto';
import { type Context, isSpanContextValid, type SpanContext, trace } from '@opentelemetry/api';
import type { Telemetry } from './telemetry.js';

/** What a gate keeps of the trace it was opened in: the W3C headers of its span's parent. */
interface StoredTraceContext {
  traceparent: string;
  tracestate?: string;
}

/**
 * The gate's span id, derived from its trace and its id: the opening request announces it, and
 * whichever node records the decision (maybe after a restart) records the span under the same id.
 */
export function gateSpanId(traceId: string, gateId: string): string {
  const id = createHash('sha256').update(`${traceId}:${gateId}`).digest('hex').slice(0, 16);
  return id === '0000000000000000' ? '0000000000000001' : id;
}

/** The text a gate keeps for a span whose parent is `parent`; null when `parent` is not a valid span. */
export function storedTraceContextOf(telemetry: Telemetry, parent: SpanContext): string | null {
  if (!isSpanContextValid(parent)) return null;
  const { traceparent, tracestate } = telemetry.headersOf(parent);
  if (traceparent === undefined) return null;
  const stored: StoredTraceContext = tracestate === undefined ? { traceparent } : { traceparent, tracestate };
  return JSON.stringify(stored);
}

/** The parent context a gate's stored trace context names; null when there is none or it is unreadable. */
export function gateParentOf(telemetry: Telemetry, stored: string | null): Context | null {
  if (stored === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const { traceparent, tracestate } = parsed as Record<string, unknown>;
  if (typeof traceparent !== 'string') return null;
  const context = telemetry.extract(
    typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent },
  );
  const span = trace.getSpanContext(context);
  return span !== undefined && isSpanContextValid(span) ? context : null;
}

/** The span context of the gate whose parent context is `parent`. */
export function gateSpanContextOf(parent: Context, gateId: string): SpanContext | null {
  const span = trace.getSpanContext(parent);
  if (span === undefined) return null;
  const context: SpanContext = {
    traceId: span.traceId,
    spanId: gateSpanId(span.traceId, gateId),
    traceFlags: span.traceFlags,
  };
  return span.traceState === undefined ? context : { ...context, traceState: span.traceState };
}
