import { type Link, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { gateParentOf, gateSpanContextOf, storedTraceContextOf } from './gate-trace.js';
import { gateParentSpanOf, noteGate, requestContext } from './request-spans.js';

/** The trace context a gate opened by `request` keeps; null while tracing is off. */
export function gateTraceContextFor(ctx: AppContext, request: FastifyRequest): string | null {
  if (ctx.telemetry === null) return null;
  const parent = gateParentSpanOf(request);
  return parent === null ? null : storedTraceContextOf(ctx.telemetry, parent);
}

async function gateParent(ctx: AppContext, gateId: string) {
  if (ctx.telemetry === null) return null;
  const stored = await ctx.store.read((tx) => tx.getGateTraceContext(gateId));
  return gateParentOf(ctx.telemetry, stored);
}

/** Names the span of gate `gateId` in the response to `request` (`traceresponse`), as the gate keeps it. */
export async function announceGateSpan(
  ctx: AppContext,
  request: FastifyRequest,
  gateId: string,
): Promise<void> {
  if (ctx.telemetry === null) return;
  noteGate(request, gateId, await gateParent(ctx, gateId));
}

/** A person's decision of gate `gateId` in a span of its own under the request's, linked to the gate's span. */
export async function decisionSpan<
  T extends { gate: { status: string; decision: { outcome: string } | null } },
>(
  ctx: AppContext,
  request: FastifyRequest,
  gate: { id: string; option: string },
  work: () => Promise<T>,
): Promise<T> {
  const { telemetry } = ctx;
  if (telemetry === null) return work();
  const parent = requestContext(request);
  if (parent === null) return work();
  const gateParentContext = await gateParent(ctx, gate.id);
  const gateSpan = gateParentContext === null ? null : gateSpanContextOf(gateParentContext, gate.id);
  const links: Link[] = gateSpan === null ? [] : [{ context: gateSpan }];
  const span = telemetry.tracer.startSpan(
    'decide gate',
    {
      kind: SpanKind.INTERNAL,
      links,
      attributes: { 'gatehouse.gate.id': gate.id, 'gatehouse.gate.option': gate.option },
    },
    parent,
  );
  try {
    const result = await work();
    span.setAttributes({
      'gatehouse.gate.status': result.gate.status,
      ...(result.gate.decision === null ? {} : { 'gatehouse.gate.outcome': result.gate.decision.outcome }),
    });
    return result;
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
