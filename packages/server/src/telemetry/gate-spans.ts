import { type Context, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Gate } from 'gatehouse-hitl-core';
import type { NotificationRecord, StreamEvent } from 'gatehouse-hitl-store';
import type { AppContext } from '../context.js';
import { gateParentOf, gateSpanContextOf } from './gate-trace.js';
import type { Telemetry } from './telemetry.js';

/** Stream events that end a gate. */
const ENDING = new Set(['gate.decided', 'gate.expired', 'gate.cancelled']);
const NOTICES = 200;

async function sentNotices(ctx: AppContext, gateId: string, before: number): Promise<NotificationRecord[]> {
  const page = await ctx.store.read((tx) => tx.listNotifications({ gateId, status: 'sent', limit: NOTICES }));
  return page.items
    .filter((notice) => notice.sentAt !== null && notice.sentAt <= before)
    .sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
}

/**
 * Records the span of the gate `event` ended, from its opening to its decision, in the trace of the
 * request that opened it, under the span id that request announced.
 */
async function recordGateSpan(ctx: AppContext, telemetry: Telemetry, event: StreamEvent): Promise<void> {
  const gateId = event.gateId;
  if (gateId === null) return;
  const [gate, stored] = await ctx.store.read(
    async (tx) => [await tx.getGate(gateId), await tx.getGateTraceContext(gateId)] as const,
  );
  if (gate === null || gate.decision === null) return;
  const decidedAt = Math.max(gate.decision.decidedAt, gate.createdAt);
  const span = startGateSpan(telemetry, gate, gateParentOf(telemetry, stored));
  span.addEvent('opened', { 'gatehouse.gate.risk': gate.risk }, gate.createdAt);
  for (const notice of await sentNotices(ctx, gateId, decidedAt)) {
    span.addEvent(
      'notice sent',
      { 'gatehouse.notice.channel': notice.channel, 'gatehouse.notice.trigger': notice.trigger },
      notice.sentAt ?? decidedAt,
    );
  }
  span.addEvent(
    'decided',
    {
      'gatehouse.gate.outcome': gate.decision.outcome,
      'gatehouse.gate.option': gate.decision.option,
      'gatehouse.gate.decided_by': gate.decision.decidedBy,
      'gatehouse.gate.wait_ms': decidedAt - gate.createdAt,
    },
    decidedAt,
  );
  span.setAttribute('gatehouse.gate.outcome', gate.decision.outcome);
  span.setStatus({ code: SpanStatusCode.OK });
  span.end(decidedAt);
}

/**
 * The gate's span under the id its opening request announced; a gate opened without a trace (by the
 * server itself, or through a route that carries none) gets a trace of its own.
 */
function startGateSpan(telemetry: Telemetry, gate: Gate, parent: Context | null): Span {
  const name = `gate ${gate.type}`;
  const options = { kind: SpanKind.INTERNAL, startTime: gate.createdAt, attributes: gateAttributes(gate) };
  const spanContext = parent === null ? null : gateSpanContextOf(parent, gate.id);
  if (parent === null || spanContext === null)
    return telemetry.tracer.startSpan(name, { ...options, root: true });
  return telemetry.startSpanWithId(spanContext.spanId, name, options, parent);
}

function gateAttributes(gate: Gate): Record<string, string> {
  const attributes: Record<string, string> = {
    'gatehouse.gate.id': gate.id,
    'gatehouse.gate.type': gate.type,
    'gatehouse.gate.risk': gate.risk,
  };
  if (gate.runId !== null) attributes['gatehouse.run.id'] = gate.runId;
  if (gate.agentId !== null) attributes['gatehouse.agent.id'] = gate.agentId;
  return attributes;
}

/**
 * Records each gate's span when this node commits its end, whichever node opened it. Subscribed only
 * while tracing is on; returns the unsubscribe function.
 */
export function recordGateSpans(ctx: AppContext, telemetry: Telemetry): () => void {
  return ctx.bus.subscribe(
    (event) => {
      if (!ENDING.has(event.type)) return;
      telemetry.track(
        recordGateSpan(ctx, telemetry, event).catch((err: unknown) =>
          ctx.log.warn({ err, gateId: event.gateId }, 'the gate span could not be recorded'),
        ),
      );
    },
    { localOnly: true },
  );
}
