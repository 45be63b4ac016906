import { RISKS_BY_SEVERITY, type RiskLevel } from '../api/gates.js';
import type { InboxFilters } from '../screens/inbox/inbox-filters.js';
import { gateTypeLabel } from './inbox-labels.js';

export interface InboxFilterBarProps {
  filters: InboxFilters;
  onChange(filters: InboxFilters): void;
  /** Values present among the pending gates, offered in the selects. */
  types: readonly string[];
  agents: readonly { id: string; name: string }[];
  runs: readonly string[];
}

const RISK_LABEL: Record<RiskLevel, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** Keeps a filter's current value selectable even when no pending gate has it any more. */
function withCurrent(values: readonly string[], current: string | null): string[] {
  return current !== null && !values.includes(current) ? [...values, current] : [...values];
}

/** The inbox filters: type, risk, agent, run, assigned to me. */
export function InboxFilterBar({ filters, onChange, types, agents, runs }: InboxFilterBarProps) {
  const set = (patch: Partial<InboxFilters>) => onChange({ ...filters, ...patch });
  const agentOptions =
    filters.agentId !== null && !agents.some((agent) => agent.id === filters.agentId)
      ? [...agents, { id: filters.agentId, name: filters.agentId }]
      : agents;
  const any =
    filters.type !== null ||
    filters.risk !== null ||
    filters.agentId !== null ||
    filters.runId !== null ||
    filters.assignedToMe;
  return (
    <fieldset className="inbox-filters">
      <legend className="visually-hidden">Filters</legend>
      <div className="inbox-filter">
        <label htmlFor="filter-type">Type</label>
        <select
          id="filter-type"
          value={filters.type ?? ''}
          onChange={(e) => set({ type: e.target.value || null })}
        >
          <option value="">All types</option>
          {withCurrent(types, filters.type).map((type) => (
            <option key={type} value={type}>
              {gateTypeLabel(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-filter">
        <label htmlFor="filter-risk">Risk</label>
        <select
          id="filter-risk"
          value={filters.risk ?? ''}
          onChange={(e) => set({ risk: (e.target.value || null) as RiskLevel | null })}
        >
          <option value="">All risks</option>
          {RISKS_BY_SEVERITY.map((risk) => (
            <option key={risk} value={risk}>
              {RISK_LABEL[risk]}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-filter">
        <label htmlFor="filter-agent">Agent</label>
        <select
          id="filter-agent"
          value={filters.agentId ?? ''}
          onChange={(e) => set({ agentId: e.target.value || null })}
        >
          <option value="">All agents</option>
          {agentOptions.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-filter">
        <label htmlFor="filter-run">Run</label>
        <select
          id="filter-run"
          value={filters.runId ?? ''}
          onChange={(e) => set({ runId: e.target.value || null })}
        >
          <option value="">All runs</option>
          {withCurrent(runs, filters.runId).map((run) => (
            <option key={run} value={run}>
              {run}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-filter inbox-filter-check">
        <input
          id="filter-mine"
          type="checkbox"
          checked={filters.assignedToMe}
          onChange={(e) => set({ assignedToMe: e.target.checked })}
        />
        <label htmlFor="filter-mine">Assigned to me</label>
      </div>
      {any && (
        <button
          type="button"
          className="button-link inbox-filter-clear"
          onClick={() =>
            onChange({ type: null, risk: null, agentId: null, runId: null, assignedToMe: false })
          }
        >
          Clear filters
        </button>
      )}
    </fieldset>
  );
}
