import type { AuditEvent } from 'gatehouse-hitl-core';
import {
  type InterventionDocument as Intervention,
  type InterventionBody,
  type InterventionKind,
  type InterventionResponse,
  type ResumeDocument,
  type RunDetailResponse,
  type RunDocument,
  type RunListResponse,
  type RunStatus,
  routeRequest,
  runRoutes,
  streamRoutes,
} from 'gatehouse-hitl-protocol';
import { queryAudit } from './audit.js';
import { callApi } from './client.js';

export type { ApprovalMode, AutonomyLevel } from 'gatehouse-hitl-protocol';
export type { Intervention, InterventionKind, RunStatus };

/** Run statuses in the order the list filter offers them. */
export const RUN_STATUSES: readonly RunStatus[] = [
  'running',
  'waiting',
  'paused',
  'stopped',
  'completed',
  'failed',
];

/** A run as the API shows it: the stored run and what it is about. */
export type Run = RunDocument;

export type RunPage = RunListResponse;

/** Where the agent resumes after its last decided phase review. */
export type RunResume = ResumeDocument;

/** One page of runs, newest first as the server orders them. */
export function listRuns(
  filter: { status?: RunStatus | undefined; agentId?: string | undefined; cursor?: string | undefined },
  signal?: AbortSignal,
): Promise<RunPage> {
  return callApi(runRoutes.list, { query: { ...filter, limit: 50 } }, signal);
}

export function getRun(id: string, signal?: AbortSignal): Promise<RunDetailResponse> {
  return callApi(runRoutes.get, { params: { id } }, signal);
}

/** Pause, resume, stop or steer (with an instruction) a run; developer or above. */
export function intervene(id: string, input: InterventionBody): Promise<InterventionResponse> {
  return callApi(runRoutes.intervene, { params: { id }, body: input });
}

export async function listInterventions(id: string, signal?: AbortSignal): Promise<Intervention[]> {
  const page = await callApi(runRoutes.interventions, { params: { id } }, signal);
  return page.items;
}

/** The run's event stream (Server-Sent Events), from now. */
export function runEventsPath(id: string): string {
  return routeRequest(streamRoutes.run, { params: { id } }).path;
}

/** Audit events about the run itself (subject = run id) of one kind, e.g. confidence reports. */
export async function runAuditEvents(
  id: string,
  kind: string,
  signal?: AbortSignal,
): Promise<{ items: AuditEvent[]; complete: boolean }> {
  const page = await queryAudit({ subject: id, kind, limit: 500 }, signal);
  return { items: page.items, complete: page.nextCursor === null };
}
