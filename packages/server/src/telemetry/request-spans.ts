import { performance } from 'node:perf_hooks';
import {
  type Context,
  isSpanContextValid,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gateSpanContextOf } from './gate-trace.js';
import type { Telemetry } from './telemetry.js';

/** A traced request: its span, the context the caller sent and the gate it answered with, if any. */
interface RequestTrace {
  span: Span;
  /** What the `traceparent`/`tracestate` headers carried; the root context without them. */
  incoming: Context;
  startedAt: number;
  gateId: string | null;
  gateSpan: SpanContext | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's trace while tracing is on (decorated by registerRequestSpans); absent otherwise. */
    gatehouseTrace?: RequestTrace | null;
  }
}

/** The trace `request` carries, when tracing is on. */
function traceOf(request: FastifyRequest): RequestTrace | undefined {
  return request.gatehouseTrace ?? undefined;
}

/** Route parameters that name a gate or a run, by the route's prefix. */
function idsOf(route: string, request: FastifyRequest, traced: RequestTrace): Record<string, string> {
  const ids: Record<string, string> = {};
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (traced.gateId !== null) ids['gatehouse.gate.id'] = traced.gateId;
  else if (route.startsWith('/v1/gates/:id') && typeof params.id === 'string')
    ids['gatehouse.gate.id'] = params.id;
  if (route.startsWith('/v1/runs/:id') && typeof params.id === 'string') ids['gatehouse.run.id'] = params.id;
  else if (typeof body.runId === 'string') ids['gatehouse.run.id'] = body.runId;
  return ids;
}

/**
 * A server span per request, named by its route template, in the caller's trace when it sent one;
 * the response names the span in a `traceresponse` header (the gate's span when it answered with a gate).
 * Registered only while tracing is on.
 */
export function registerRequestSpans(app: FastifyInstance, telemetry: Telemetry): void {
  const duration = telemetry.meter.createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP requests, by method, route template and status.',
    unit: 's',
  });
  app.decorateRequest('gatehouseTrace', null);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const incoming = telemetry.extract(request.headers);
    const span = telemetry.tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': route },
      },
      incoming,
    );
    request.gatehouseTrace = { span, incoming, startedAt: performance.now(), gateId: null, gateSpan: null };
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const traced = traceOf(request);
    if (traced === undefined) return payload;
    const { traceparent } = telemetry.headersOf(traced.gateSpan ?? traced.span.spanContext());
    if (traceparent !== undefined) void reply.header('traceresponse', traceparent);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const traced = traceOf(request);
    if (traced === undefined) return;
    request.gatehouseTrace = null;
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    traced.span.setAttributes({ 'http.response.status_code': status, ...idsOf(route, request, traced) });
    if (status >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
    traced.span.end();
    const seconds = (performance.now() - traced.startedAt) / 1000;
    duration.record(seconds, {
      'http.request.method': request.method,
      'http.route': route,
      'http.response.status_code': status,
    });
  });
}

/** The context work done for `request` starts its spans in: under the request's span. */
export function requestContext(request: FastifyRequest): Context | null {
  const traced = traceOf(request);
  return traced === undefined ? null : trace.setSpan(traced.incoming, traced.span);
}

/**
 * The span context a gate opened by `request` is parented to: the caller's span when it sent a
 * `traceparent`, else the request's own span.
 */
export function gateParentSpanOf(request: FastifyRequest): SpanContext | null {
  const traced = traceOf(request);
  if (traced === undefined) return null;
  const caller = trace.getSpanContext(traced.incoming);
  return caller !== undefined && isSpanContextValid(caller) ? caller : traced.span.spanContext();
}

/** Notes that `request` answered with gate `gateId`, whose span the response then names. */
export function noteGate(request: FastifyRequest, gateId: string, gateParent: Context | null): void {
  const traced = traceOf(request);
  if (traced === undefined) return;
  traced.gateId = gateId;
  traced.gateSpan = gateParent === null ? null : gateSpanContextOf(gateParent, gateId);
}
