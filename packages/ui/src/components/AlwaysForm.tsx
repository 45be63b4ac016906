import type { GateOption, StandingScope } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { type FormEvent, type RefObject, useId, useRef } from 'react';
import type { RuleScope } from '../api/rules.js';
import {
  allowedSentence,
  isEditable,
  scopeChoices,
  scopeLabel,
  scopeProblem,
  scopeText,
  withText,
} from './always-scope.js';
import { useRevealOnOpen } from './use-reveal-on-open.js';

export interface AlwaysValues {
  scope: RuleScope;
  /** Seconds until the rule expires; 0 = until revoked. */
  ttlSeconds: number;
  /** Which of the suggested scopes is chosen (0 = the suggestion). */
  choice: number;
  /** The chosen scope's prefix or glob as the person edited it. */
  text: string;
}

/** The form's first values for a gate: the suggested scope, this run (or agent), until revoked. */
export function initialAlwaysValues(gate: Pick<Gate, 'runId' | 'action'>): AlwaysValues {
  const first = scopeChoices(gate.action).options[0];
  return {
    scope: gate.runId ? 'run' : 'agent',
    ttlSeconds: 0,
    choice: 0,
    text: first === undefined ? '' : scopeText(first),
  };
}

const EXPIRIES: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Until revoked' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

function expiryWords(seconds: number): string | null {
  return seconds === 0
    ? null
    : (EXPIRIES.find((expiry) => expiry.seconds === seconds)?.label ?? `${seconds}s`);
}

function ScopeChoices({
  id,
  options,
  values,
  problem,
  onChange,
  textRef,
}: {
  id: string;
  options: StandingScope[];
  values: AlwaysValues;
  problem: string | null;
  onChange(values: AlwaysValues): void;
  textRef: RefObject<HTMLInputElement | null>;
}) {
  return (
    <fieldset className="field">
      <legend>What later calls it covers</legend>
      {options.map((match, i) => {
        const chosen = values.choice === i;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the suggestions are fixed for the gate; their order is their identity.
          <div key={i} className="scope-choice">
            <label className="checkbox">
              <input
                type="radio"
                name={`${id}-match`}
                value={String(i)}
                checked={chosen}
                onChange={() => onChange({ ...values, choice: i, text: scopeText(match) })}
              />{' '}
              <span>
                {scopeLabel(match)}
                {i === 0 && <span className="muted"> (suggested)</span>}
              </span>
            </label>
            {chosen && isEditable(match) && (
              <div className="field scope-text">
                <label htmlFor={`${id}-text`}>
                  {match.kind === 'prefix' ? 'The command starts with' : 'Files matching (workspace glob)'}
                </label>
                <input
                  id={`${id}-text`}
                  ref={textRef}
                  type="text"
                  className="scope-input"
                  value={values.text}
                  spellCheck={false}
                  autoComplete="off"
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : undefined}
                  onChange={(event) => onChange({ ...values, text: event.target.value })}
                />
              </div>
            )}
          </div>
        );
      })}
      {problem && (
        <p id={`${id}-problem`} className="field-error">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

/**
 * "Approve always": which later calls the remembered rule covers (the scopes core suggests, the
 * prefix or glob editable), where it applies (run / agent / global), when it expires, and one
 * sentence saying what will be allowed.
 */
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
  onSubmit(match: StandingScope): void;
  onCancel(): void;
}) {
  const id = useId();
  const textRef = useRef<HTMLInputElement>(null);
  const reveal = useRevealOnOpen<HTMLFormElement & HTMLDivElement>(true);
  const tool = gate.action?.tool ?? 'this tool';
  const { options, refusal } = scopeChoices(gate.action);
  const suggested = options[values.choice] ?? options[0];
  const match = suggested === undefined ? null : withText(suggested, values.text);
  const problem = match === null || gate.action === null ? null : scopeProblem(match, gate.action);
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
    if (match === null) return;
    if (problem !== null) {
      textRef.current?.focus();
      return;
    }
    onSubmit(match);
  };
  if (match === null)
    return (
      <div className="always-form" ref={reveal}>
        <h3>{option.label}</h3>
        <p className="notice warn">
          “Always” cannot be remembered for this call: {refusal ?? 'no scope fits it'}. Approve it once
          instead.
        </p>
        <button type="button" onClick={onCancel}>
          Close
        </button>
      </div>
    );
  return (
    <form className="always-form" ref={reveal} onSubmit={submit} noValidate>
      <h3>
        {option.label}: stop asking for similar {tool} calls
      </h3>
      <p className="muted small">
        Runs this call now. Later calls the rule covers go ahead without a gate; always-gated operations still
        wait for a person. Rules are listed under Rules, where they can be revoked.
      </p>
      <ScopeChoices
        id={id}
        options={options}
        values={values}
        problem={problem}
        onChange={onChange}
        textRef={textRef}
      />
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
      <p id={`${id}-allowed`} className="always-allowed">
        {problem === null
          ? allowedSentence({ tool, match, scope: values.scope, expiry: expiryWords(values.ttlSeconds) })
          : 'Nothing will be remembered until the scope fits this call.'}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy} aria-describedby={`${id}-allowed`}>
          Remember and allow
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
