import type { Briefing, RiskLevel } from 'gatehouse-hitl-core';
import type { GateListItem } from 'gatehouse-hitl-protocol';
import {
  type DecideBatchResponse,
  type GateListQuery,
  type GateListResponse,
  type GateViewResponse,
  gateActionRoutes,
  gateRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { GateOption, GateStatus, RiskLevel } from 'gatehouse-hitl-core';
export type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
/** A gate as lists carry it: with `headline`, the line its page leads with, which every list shows. */
export type ListedGate = GateListItem;

/** Risks from most to least severe; the inbox sorts and counts by this order. */
export const RISKS_BY_SEVERITY: readonly RiskLevel[] = ['critical', 'high', 'medium', 'low'];

/** Filters the gate list understands (all optional). */
export type GateFilter = Omit<GateListQuery, 'limit' | 'cursor'>;

/** One page of gates, oldest first; pass `nextCursor` back for the next page. */
export type GatePage = GateListResponse;

/** A gate as the API returns it, with its Summary of Action read as core's briefing (core builds it). */
export type GateView = Omit<GateViewResponse, 'briefing'> & { briefing: Briefing | null };

/** The largest page the server serves. */
export const MAX_GATE_PAGE = 500;

/** Lists one page of gates. */
export function listGates(filter: GateListQuery, signal?: AbortSignal): Promise<GatePage> {
  return callApi(gateRoutes.list, { query: filter }, signal);
}

/** Every gate matching `filter`, page by page, up to `max` gates; `complete` is false when it stopped early. */
export async function listAllGates(
  filter: GateFilter,
  options: { max: number; signal?: AbortSignal },
): Promise<{ gates: ListedGate[]; complete: boolean }> {
  const gates: ListedGate[] = [];
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
export async function getGate(id: string, signal?: AbortSignal): Promise<GateView> {
  const view = await callApi(gateRoutes.get, { params: { id } }, signal);
  return { ...view, briefing: view.briefing as Briefing | null };
}

/** The server takes at most this many gates per batch decision. */
export const MAX_BATCH = 100;

/** What happened to one gate of a batch decision: `ok` when the option was recorded (an N-of-M gate may still be pending). */
export type BatchItemResult = DecideBatchResponse['results'][number];

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
    const answer = await callApi(gateActionRoutes.decideBatch, { body });
    results.push(...answer.results);
  }
  return results;
}
