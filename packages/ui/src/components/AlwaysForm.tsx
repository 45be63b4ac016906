import type { Gate, GateOption } from 'gatehouse-hitl-core';
import { type FormEvent, useId } from 'react';
import type { RuleScope } from '../api/rules.js';

export interface AlwaysValues {
  scope: RuleScope;
  /** Seconds until the rule expires; 0 = until revoked. */
  ttlSeconds: number;
}

const EXPIRIES: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Until revoked' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

/** "Approve always": where the remembered rule applies (run / agent / global) and when it expires. */
export function AlwaysForm({
  option,
  gate,
  canGlobal,
  values,
  onChange,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  option: GateOption;
  gate: Pick<Gate, 'runId' | 'agentId' | 'action'>;
  canGlobal: boolean;
  values: AlwaysValues;
  onChange(values: AlwaysValues): void;
  error: string | undefined;
  busy: boolean;
  onSubmit(): void;
  onCancel(): void;
}) {
  const id = useId();
  const tool = gate.action?.tool ?? 'this tool';
  const scopes: { scope: RuleScope; label: string; unavailable: string | null }[] = [
    {
      scope: 'run',
      label: 'This run',
      unavailable: gate.runId === null ? 'the gate belongs to no run' : null,
    },
    {
      scope: 'agent',
      label: 'This agent, every run',
      unavailable: gate.agentId === null ? 'the gate has no agent' : null,
    },
    { scope: 'global', label: 'Every agent', unavailable: canGlobal ? null : 'needs tech lead or admin' },
  ];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="always-form" onSubmit={submit} noValidate>
      <h3>
        {option.label}: stop asking for {tool}
      </h3>
      <p className="muted small">
        Runs this call now, and later calls of {tool} go ahead without a gate where the rule applies. Rules
        are listed under Rules, where they can be revoked.
      </p>
      <fieldset className="field">
        <legend>Remember for</legend>
        {scopes.map((choice) => (
          <label key={choice.scope} className="checkbox">
            <input
              type="radio"
              name={`${id}-scope`}
              value={choice.scope}
              checked={values.scope === choice.scope}
              disabled={choice.unavailable !== null}
              onChange={() => onChange({ ...values, scope: choice.scope })}
            />{' '}
            {choice.label}
            {choice.unavailable && <span className="muted"> ({choice.unavailable})</span>}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-expiry`}>Rule expires</label>
        <select
          id={`${id}-expiry`}
          value={values.ttlSeconds}
          onChange={(event) => onChange({ ...values, ttlSeconds: Number(event.target.value) })}
        >
          {EXPIRIES.map((expiry) => (
            <option key={expiry.seconds} value={expiry.seconds}>
              {expiry.label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Remember and allow
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
