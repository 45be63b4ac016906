import type { InterventionKind } from 'gatehouse-hitl-protocol';
import {
  gateOutcome,
  isGatehouseApiError,
  isGateStatus,
  lightRoutes,
  routeRequest,
  type StreamEventName,
} from 'gatehouse-hitl-protocol/rules';
import { type Backoff, backoffDelay, linkSignals, sleep } from './backoff.js';
import type { Transport } from './http.js';
import { readSse, type SseMessage, SseParser } from './sse.js';
import type { Outcome } from './types.js';

/** A person paused, resumed, stopped or steered the run. */
export interface InterventionEvent {
  kind: InterventionKind | (string & {});
  /** The new instruction of a steer, delivered verbatim; null otherwise. */
  instruction: string | null;
  at: number;
  /** The stream's event id. */
  eventId: string | null;
}

/** A gate of the run ended (only yielded with `decisions: true`). */
export interface DecisionEvent {
  kind: 'decision';
  gateId: string;
  outcome: Outcome | null;
  instruction: string | null;
  at: number;
  eventId: string | null;
}

export type RunEvent = InterventionEvent | DecisionEvent;

/** Options of `interventions(runId, …)`. */
export interface RunEventOptions {
  signal?: AbortSignal | undefined;
  /**
   * Also yield a `decision` event whenever a gate of the run ends.
   * @default false
   */
  decisions?: boolean;
  /** Resume after this event id instead of from now. */
  lastEventId?: string;
  /**
   * Reconnect when nothing (not even a heartbeat, sent every 15 s) arrived for this long.
   * @default 45000
   */
  idleTimeoutMs?: number;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const time = (...values: unknown[]): number =>
  (values.find((v) => typeof v === 'number') as number) ?? Date.now();

/** The stream events after which a gate has ended. */
const ENDING_EVENTS: ReadonlySet<string> = new Set<StreamEventName>([
  'gate.decided',
  'gate.expired',
  'gate.cancelled',
]);

/** Turns one SSE message of a run stream into a run event, or null for anything else. */
export function toRunEvent(message: SseMessage, decisions: boolean): RunEvent | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = record(JSON.parse(message.data));
  } catch {
    return null;
  }
  // The stream may send the stored event ({ type, gateId, data, at }) or just its data.
  const type = message.event !== 'message' ? message.event : (text(parsed.type) ?? '');
  const data = typeof parsed.type === 'string' && 'data' in parsed ? record(parsed.data) : parsed;
  const at = time(data.at, data.createdAt, parsed.at);
  if (type === 'intervention' || type.startsWith('run.intervention') || type.startsWith('intervention.')) {
    const kind = text(data.kind) ?? type.split('.').pop() ?? 'unknown';
    return { kind, instruction: text(data.instruction), at, eventId: message.id };
  }
  if (!decisions || !ENDING_EVENTS.has(type)) return null;
  const gateId = text(data.gateId) ?? text(parsed.gateId) ?? text(record(data.gate).id);
  if (gateId === null) return null;
  const decision = record(data.decision ?? record(data.gate).decision);
  return {
    kind: 'decision',
    gateId,
    outcome: text(data.outcome) ?? outcomeOfStatus(text(data.status)),
    instruction: text(data.instructions) ?? text(decision.instructions),
    at,
    eventId: message.id,
  };
}

function outcomeOfStatus(status: string | null): Outcome | null {
  return isGateStatus(status) ? gateOutcome(status) : null;
}

/** True for stream failures worth reconnecting after: the server is away or restarting. */
function isTransient(error: unknown): boolean {
  if (!isGatehouseApiError(error)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 429;
}

/** Three missed heartbeats (the server sends one every 15 s): the connection is dead, reconnect. */
const IDLE_TIMEOUT_MS = 45_000;

interface StreamState {
  lastEventId: string | null;
  retryMs: number | null;
  attempt: number;
}

/** One connection to the run's stream: yields its events until it ends, fails, or goes quiet. */
async function* connectOnce(
  transport: Transport,
  runId: string,
  signal: AbortSignal,
  state: StreamState,
  options: RunEventOptions,
): AsyncGenerator<RunEvent> {
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const idle = new AbortController();
  const linked = linkSignals(signal, idle.signal);
  let timer = setTimeout(() => idle.abort(), idleMs);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), idleMs);
  };
  const parser = new SseParser();
  parser.lastEventId = state.lastEventId;
  try {
    const headers: Record<string, string> =
      state.lastEventId === null ? {} : { 'last-event-id': state.lastEventId };
    const { path } = routeRequest(lightRoutes.streams.run, { params: { id: runId } });
    const response = await transport.stream(path, headers, linked.signal);
    if (response.body === null) throw new TypeError('the event stream has no body');
    state.attempt = 0;
    for await (const message of readSse(response.body, parser, alive)) {
      state.lastEventId = parser.lastEventId;
      const event = toRunEvent(message, options.decisions ?? false);
      if (event) yield event;
    }
  } finally {
    clearTimeout(timer);
    linked.dispose();
    state.lastEventId = parser.lastEventId;
    state.retryMs = parser.retryMs ?? state.retryMs;
  }
}

/**
 * Follows a run's event stream, reconnecting with `Last-Event-ID` (so nothing is missed) until
 * the signal aborts; refusals such as FORBIDDEN or NOT_FOUND end it with their error.
 */
export async function* followRunEvents(
  transport: Transport,
  runId: string,
  backoff: Backoff,
  options: RunEventOptions = {},
): AsyncGenerator<RunEvent> {
  const stop = new AbortController();
  const own = linkSignals(options.signal, stop.signal);
  const state: StreamState = { lastEventId: options.lastEventId ?? null, retryMs: null, attempt: 0 };
  try {
    while (!own.signal.aborted) {
      try {
        yield* connectOnce(transport, runId, own.signal, state, options);
      } catch (error) {
        if (own.signal.aborted) return;
        if (!isTransient(error)) throw error;
      }
      const delay =
        state.attempt === 0 && state.retryMs !== null ? state.retryMs : backoffDelay(state.attempt, backoff);
      state.attempt++;
      await sleep(delay, own.signal).catch(() => {});
    }
  } finally {
    stop.abort();
    own.dispose();
  }
}
