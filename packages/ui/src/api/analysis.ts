import {
  analysisRoutes,
  type CreateWhitelistBody,
  type FindingDocument,
  type FindingReportBody,
  type GateDocument,
  type PatternStats,
  type RecoveryDocument,
  type WhitelistEntry,
  whitelistRoutes,
} from 'gatehouse-hitl-protocol';
import { queryAudit } from './audit.js';
import { callApi } from './client.js';

export type { FindingDocument, PatternStats, RecoveryDocument, WhitelistEntry };

/** One finding as the run's `analysis.recorded` events carry it. */
export type RunFinding = Pick<
  FindingDocument,
  'key' | 'kind' | 'pattern' | 'severity' | 'confidence' | 'file' | 'line' | 'name' | 'message'
>;

/** The latest analysis of a run: when, and what it found. */
export interface LatestAnalysis {
  at: number;
  findings: RunFinding[];
}

/** Each laziness finding's recovery in the run: attempts, stage and history. */
export async function listRecoveries(runId: string, signal?: AbortSignal): Promise<RecoveryDocument[]> {
  const body = await callApi(analysisRoutes.recoveries, { params: { id: runId } }, signal);
  return body.recoveries;
}

/** The findings of the run's latest analysis, from its audit trail (`analysis.recorded`); null before any. */
export async function latestAnalysis(runId: string, signal?: AbortSignal): Promise<LatestAnalysis | null> {
  const page = await queryAudit(
    { subject: runId, kind: 'analysis.recorded', order: 'desc', limit: 1 },
    signal,
  );
  const latest = page.items[0];
  if (latest === undefined) return null;
  const details = latest.data.findingDetails;
  return { at: latest.at, findings: Array.isArray(details) ? (details as RunFinding[]) : [] };
}

/** Reports a finding as wrong (developer or above): opens a false_positive_override gate a person decides. */
export async function reportFalsePositive(input: FindingReportBody): Promise<GateDocument> {
  const body = await callApi(analysisRoutes.reportFinding, { body: input });
  return body.gate;
}

export async function listWhitelists(signal?: AbortSignal): Promise<WhitelistEntry[]> {
  const body = await callApi(whitelistRoutes.list, {}, signal);
  return body.whitelists;
}

/** Adds an entry (tech lead or above); the server names the field of a bad value. */
export async function createWhitelist(input: CreateWhitelistBody): Promise<WhitelistEntry> {
  const body = await callApi(whitelistRoutes.create, { body: input });
  return body.whitelist;
}

/** Keeps an entry 90 more days from now, with a new justification when one is given. */
export async function renewWhitelist(id: string, justification?: string): Promise<WhitelistEntry> {
  const body = await callApi(whitelistRoutes.renew, {
    params: { id },
    body: justification === undefined ? {} : { justification },
  });
  return body.whitelist;
}

/** Removes an entry: its pattern is reported again. */
export async function revokeWhitelist(id: string): Promise<WhitelistEntry> {
  const body = await callApi(whitelistRoutes.remove, { params: { id } });
  return body.whitelist;
}

/** Every pattern seen, with detections, confirmed false positives and the rate. */
export async function listPatterns(signal?: AbortSignal): Promise<PatternStats[]> {
  const body = await callApi(whitelistRoutes.patterns, {}, signal);
  return body.patterns;
}
