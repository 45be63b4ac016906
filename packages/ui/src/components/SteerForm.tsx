import type { GateOption } from 'gatehouse-hitl-core';
import { type FormEvent, type RefObject, useId } from 'react';

export interface SteerValues {
  instructions: string;
  artifacts: ReadonlySet<string>;
  otherPaths: string;
}

/**
 * The instructions form of Steer (and Suggest): required instructions for the agent and a picker
 * of the artifacts they are about.
 */
export function SteerForm({
  option,
  values,
  onChange,
  choices,
  errors,
  busy,
  onSubmit,
  onCancel,
  instructionsRef,
}: {
  option: GateOption;
  values: SteerValues;
  onChange(values: SteerValues): void;
  /** Workspace paths the gate names, offered as checkboxes. */
  choices: readonly string[];
  errors: { instructions?: string | undefined; artifacts?: string | undefined };
  busy: boolean;
  onSubmit(): void;
  onCancel(): void;
  instructionsRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const toggle = (path: string, on: boolean) => {
    const next = new Set(values.artifacts);
    if (on) next.add(path);
    else next.delete(path);
    onChange({ ...values, artifacts: next });
  };
  const hint = `${id}-hint`;
  const error = `${id}-error`;
  return (
    <form className="steer-form" onSubmit={submit} noValidate>
      <h3>{option.label}: tell the agent what to do instead</h3>
      <div className="field">
        <label htmlFor={`${id}-instructions`}>Instructions the agent follows next ({option.label})</label>
        <p id={hint} className="muted small">
          Required. Delivered to the agent word for word as its next instruction.
        </p>
        <textarea
          id={`${id}-instructions`}
          ref={instructionsRef}
          value={values.instructions}
          onChange={(event) => onChange({ ...values, instructions: event.target.value })}
          aria-required="true"
          aria-invalid={errors.instructions ? true : undefined}
          aria-describedby={errors.instructions ? `${hint} ${error}` : hint}
          maxLength={10_000}
          rows={4}
        />
        {errors.instructions && (
          <p id={error} className="field-error">
            {errors.instructions}
          </p>
        )}
      </div>
      <fieldset className="field artifact-picker">
        <legend>Affected artifacts (optional)</legend>
        {choices.length === 0 ? (
          <p className="muted small">The gate names no workspace files.</p>
        ) : (
          <ul className="checkbox-list">
            {choices.map((path) => (
              <li key={path}>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={values.artifacts.has(path)}
                    onChange={(event) => toggle(path, event.target.checked)}
                  />{' '}
                  <code>{path}</code>
                </label>
              </li>
            ))}
          </ul>
        )}
        <label htmlFor={`${id}-other`} className="small-label">
          Other affected paths
        </label>
        <input
          id={`${id}-other`}
          type="text"
          value={values.otherPaths}
          onChange={(event) => onChange({ ...values, otherPaths: event.target.value })}
          placeholder="src/a.ts, docs/b.md"
          aria-describedby={errors.artifacts ? `${id}-artifacts-error` : undefined}
          aria-invalid={errors.artifacts ? true : undefined}
        />
        {errors.artifacts && (
          <p id={`${id}-artifacts-error`} className="field-error">
            {errors.artifacts}
          </p>
        )}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Send {option.label.toLowerCase()}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
