import { type Gate, RISKS_BY_SEVERITY, type RiskLevel } from '../../api/gates.js';

/** The inbox filters; they live in the address (`?type=…&risk=…&agent=…&run=…&mine=1`) so links share them. */
export interface InboxFilters {
  type: string | null;
  risk: RiskLevel | null;
  agentId: string | null;
  runId: string | null;
  assignedToMe: boolean;
}

const PARAM = { type: 'type', risk: 'risk', agentId: 'agent', runId: 'run', assignedToMe: 'mine' } as const;

function isRisk(value: string | null): value is RiskLevel {
  return value !== null && (RISKS_BY_SEVERITY as readonly string[]).includes(value);
}

/** Reads the filters from the address's query. */
export function readFilters(params: URLSearchParams): InboxFilters {
  const risk = params.get(PARAM.risk);
  return {
    type: params.get(PARAM.type) || null,
    risk: isRisk(risk) ? risk : null,
    agentId: params.get(PARAM.agentId) || null,
    runId: params.get(PARAM.runId) || null,
    assignedToMe: params.get(PARAM.assignedToMe) === '1',
  };
}

/** The query for these filters, keeping any other parameters of `base`. */
export function writeFilters(base: URLSearchParams, filters: InboxFilters): URLSearchParams {
  const next = new URLSearchParams(base);
  const set = (key: string, value: string | null) => {
    if (value === null) next.delete(key);
    else next.set(key, value);
  };
  set(PARAM.type, filters.type);
  set(PARAM.risk, filters.risk);
  set(PARAM.agentId, filters.agentId);
  set(PARAM.runId, filters.runId);
  set(PARAM.assignedToMe, filters.assignedToMe ? '1' : null);
  return next;
}

export function hasFilters(filters: InboxFilters): boolean {
  return (
    filters.type !== null ||
    filters.risk !== null ||
    filters.agentId !== null ||
    filters.runId !== null ||
    filters.assignedToMe
  );
}

/** Whether a gate passes the filters; `userId` is who "assigned to me" means. */
export function matchesFilters(gate: Gate, filters: InboxFilters, userId: string): boolean {
  if (filters.type !== null && gate.type !== filters.type) return false;
  if (filters.risk !== null && gate.risk !== filters.risk) return false;
  if (filters.agentId !== null && gate.agentId !== filters.agentId) return false;
  if (filters.runId !== null && gate.runId !== filters.runId) return false;
  if (filters.assignedToMe && !gate.assignees.includes(userId)) return false;
  return true;
}
