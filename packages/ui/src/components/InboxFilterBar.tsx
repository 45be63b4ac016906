import { RISKS_BY_SEVERITY, type RiskLevel } from '../api/gates.js';
import type { InboxFilters } from '../screens/inbox/inbox-filters.js';
import { Field } from './Field.js';
import { gateTypeLabel } from './inbox-labels.js';

export interface InboxFilterBarProps {
  filters: InboxFilters;
  onChange(filters: InboxFilters): void;
  /** Values present among the pending gates, offered in the selects. */
  types: readonly string[];
  agents: readonly { id: string; name: string }[];
  runs: readonly string[];
  /** What a person calls a run: its title (the id only for a run without one). */
  runName(runId: string): string;
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

/** One filter select; its first option ("All …") means no filter (null). */
function FilterSelect({
  id,
  label,
  all,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  all: string;
  value: string | null;
  options: readonly { value: string; text: string }[];
  onChange(value: string | null): void;
}) {
  return (
    <Field id={id} label={label} className="inbox-filter">
      {(wiring) => (
        <select {...wiring} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
          <option value="">{all}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The inbox filters: type, risk, agent, run, assigned to me. */
export function InboxFilterBar({ filters, onChange, types, agents, runs, runName }: InboxFilterBarProps) {
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
      <FilterSelect
        id="filter-type"
        label="Type"
        all="All types"
        value={filters.type}
        options={withCurrent(types, filters.type).map((type) => ({ value: type, text: gateTypeLabel(type) }))}
        onChange={(type) => set({ type })}
      />
      <FilterSelect
        id="filter-risk"
        label="Risk"
        all="All risks"
        value={filters.risk}
        options={RISKS_BY_SEVERITY.map((risk) => ({ value: risk, text: RISK_LABEL[risk] }))}
        onChange={(risk) => set({ risk: risk as RiskLevel | null })}
      />
      <FilterSelect
        id="filter-agent"
        label="Agent"
        all="All agents"
        value={filters.agentId}
        options={agentOptions.map((agent) => ({ value: agent.id, text: agent.name }))}
        onChange={(agentId) => set({ agentId })}
      />
      <FilterSelect
        id="filter-run"
        label="Run"
        all="All runs"
        value={filters.runId}
        options={withCurrent(runs, filters.runId).map((run) => ({ value: run, text: runName(run) }))}
        onChange={(runId) => set({ runId })}
      />
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
