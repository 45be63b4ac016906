import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { ArgumentChanges } from './ArgumentChanges.js';
import { argumentKind, changesOf, draftOf, parseDrafts } from './edit-args.js';
import { useRevealOnOpen } from './use-reveal-on-open.js';

function ArgumentEditor({
  name,
  value,
  draft,
  error,
  disabled,
  onChange,
}: {
  name: string;
  value: unknown;
  draft: string;
  error: string | undefined;
  disabled: boolean;
  onChange(draft: string): void;
}) {
  const id = useId();
  const kind = argumentKind(name, value);
  const common = {
    id,
    value: draft,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {name}
        {kind === 'json' && <span className="muted small"> (JSON)</span>}
      </label>
      {kind === 'line' ? (
        <input
          {...common}
          type="text"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <textarea
          {...common}
          rows={Math.min(16, Math.max(3, draft.split('\n').length))}
          spellCheck={false}
          className="mono"
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * "Edit & approve": an editor per argument (the command as a text field, a diff as a text area,
 * anything else as JSON), the changes against the agent's proposal, and approval of the edited
 * action. The server checks the edit against the policy as strictly as the agent's request.
 */
export function EditArgsForm({
  gate,
  busy,
  serverError,
  onSubmit,
  onCancel,
}: {
  gate: Gate;
  busy: boolean;
  /** The server's refusal of the edit (a policy rule, a hidden character), naming the field. */
  serverError: string | null;
  onSubmit(editedArgs: Record<string, unknown>): void;
  onCancel(): void;
}) {
  const original = useMemo(() => gate.action?.args ?? {}, [gate]);
  const [drafts, setDrafts] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(original).map(([name, value]) => [name, draftOf(name, value)])),
  );
  const reveal = useRevealOnOpen<HTMLFormElement>(true);
  const parsed = parseDrafts(original, drafts);
  const changes = Object.keys(parsed.errors).length === 0 ? changesOf(original, parsed.args) : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(parsed.errors).length === 0 && changes.length > 0) onSubmit(parsed.args);
  };
  return (
    <form
      ref={reveal}
      className="edit-args-form"
      onSubmit={submit}
      noValidate
      aria-label="Edit the arguments, then approve"
    >
      <h3>Edit the arguments, then approve</h3>
      <p className="muted small">
        The agent runs exactly what you approve here; the policy checks your edit like the agent's own
        request.
      </p>
      {Object.entries(original).map(([name, value]) => (
        <ArgumentEditor
          key={name}
          name={name}
          value={value}
          draft={drafts[name] ?? ''}
          error={parsed.errors[name]}
          disabled={busy}
          onChange={(draft) => setDrafts((current) => ({ ...current, [name]: draft }))}
        />
      ))}
      <h4>Changes</h4>
      {changes.length === 0 ? (
        <p className="muted">No argument is changed yet.</p>
      ) : (
        <ArgumentChanges changes={changes} label="Changes to the arguments" />
      )}
      {serverError && (
        <p className="field-error" role="alert">
          {serverError}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || changes.length === 0}>
          Approve edited action
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
