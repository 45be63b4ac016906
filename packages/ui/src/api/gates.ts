import type { Briefing, Gate, GateStatus, RiskLevel } from 'gatehouse-hitl-core';
import { api } from './client.js';

export type { Gate, GateOption, GateStatus, RiskLevel } from 'gatehouse-hitl-core';

/** Risks from most to least severe; the inbox sorts and counts by this order. */
export const RISKS_BY_SEVERITY: readonly RiskLevel[] = ['critical', 'high', 'medium', 'low'];

/** Filters `GET /v1/gates` understands (all optional). */
export interface GateFilter {
  status?: GateStatus;
  type?: string;
  risk?: RiskLevel;
  agentId?: string;
  runId?: string;
  /** Only gates assigned to this person (a user id). */
  assignee?: string;
}

/** One page of gates, oldest first; pass `nextCursor` back for the next page. */
export interface GatePage {
  items: Gate[];
  nextCursor: string | null;
}

/** A gate as `GET /v1/gates/:id` returns it: the gate, its Summary of Action, when it was used. */
export interface GateView {
  gate: Gate;
  briefing: Briefing | null;
  consumedAt: number | null;
  /** The person who owns the agent that asked, when separation of duties keeps them from approving. */
  separatedOwner: string | null;
}

/** The largest page the server serves. */
export const MAX_GATE_PAGE = 500;

/** Lists one page of gates. */
export function listGates(
  filter: GateFilter & { limit?: number; cursor?: string },
  signal?: AbortSignal,
): Promise<GatePage> {
  return api<GatePage>('GET', '/v1/gates', { query: { ...filter }, ...(signal ? { signal } : {}) });
}

/** Every gate matching `filter`, page by page, up to `max` gates; `complete` is false when it stopped early. */
export async function listAllGates(
  filter: GateFilter,
  options: { max: number; signal?: AbortSignal },
): Promise<{ gates: Gate[]; complete: boolean }> {
  const gates: Gate[] = [];
  let cursor: string | undefined;
  for (;;) {
    const limit = Math.min(MAX_GATE_PAGE, options.max - gates.length);
    const page = await listGates({ ...filter, limit, ...(cursor ? { cursor } : {}) }, options.signal);
    gates.push(...page.items);
    if (page.nextCursor === null) return { gates, complete: true };
    if (gates.length >= options.max) return { gates, complete: false };
    cursor = page.nextCursor;
  }
}

/** Reads one gate with its briefing. */
export function getGate(id: string, signal?: AbortSignal): Promise<GateView> {
  return api<GateView>('GET', `/v1/gates/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

/** The server takes at most this many gates per batch decision. */
export const MAX_BATCH = 100;

/** What happened to one gate of a batch decision. */
export interface BatchItemResult {
  gateId: string;
  /** True when the option was recorded (an N-of-M gate may still be pending). */
  ok: boolean;
  /** The gate's status afterwards, when decided. */
  status?: GateStatus;
  /** Why the server refused this gate. */
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/**
 * Decides several gates with one option and one reason. The server answers per gate, so a gate
 * that needs a signature, more approvals or another role is refused alone; more than
 * {@link MAX_BATCH} gates go in several requests.
 */
export async function decideBatch(input: {
  gateIds: readonly string[];
  option: string;
  reason?: string;
}): Promise<BatchItemResult[]> {
  const results: BatchItemResult[] = [];
  for (let start = 0; start < input.gateIds.length; start += MAX_BATCH) {
    const gateIds = input.gateIds.slice(start, start + MAX_BATCH);
    const body = { gateIds, option: input.option, ...(input.reason ? { reason: input.reason } : {}) };
    const answer = await api<{ results: BatchItemResult[] }>('POST', '/v1/gates/decide-batch', { body });
    results.push(...answer.results);
  }
  return results;
}
