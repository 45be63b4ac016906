import { WHITELIST_JUSTIFICATION_MIN } from 'gatehouse-hitl-protocol/rules';
import { type FormEvent, useId, useState } from 'react';
import { createWhitelist, type WhitelistEntry } from '../api/analysis.js';
import { Field } from './Field.js';
import { useFieldError } from './use-field-error.js';

/** Adds a whitelist entry: pattern, scope (a file glob or everywhere) and the justification it requires. */
export function WhitelistForm({
  patterns,
  onCreated,
}: {
  patterns: readonly string[];
  onCreated(entry: WhitelistEntry): void;
}) {
  const id = useId();
  const [pattern, setPattern] = useState('');
  const [scope, setScope] = useState<'file' | 'global'>('file');
  const [path, setPath] = useState('');
  const [justification, setJustification] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, setError, fail, errorFor } = useFieldError();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Said here at once; the server says the same for anything that slips past.
    if (justification.trim().length < WHITELIST_JUSTIFICATION_MIN) {
      setError({
        field: 'justification',
        text: `justification must say why in at least ${WHITELIST_JUSTIFICATION_MIN} characters`,
      });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const entry = await createWhitelist({
        pattern: pattern.trim(),
        scope,
        // An empty path is left out, so the server answers that scope file needs one.
        ...(scope === 'file' && path.trim() !== '' ? { path: path.trim() } : {}),
        justification: justification.trim(),
      });
      setPattern('');
      setPath('');
      setJustification('');
      onCreated(entry);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        id={`${id}-pattern`}
        label="Pattern"
        hint="A pattern id, e.g. lazy.error_swallowed"
        error={errorFor('pattern')}
      >
        {(wiring) => (
          <input
            {...wiring}
            list={`${id}-patterns`}
            value={pattern}
            onChange={(event) => setPattern(event.target.value)}
            required
          />
        )}
      </Field>
      <datalist id={`${id}-patterns`}>
        {patterns.map((known) => (
          <option key={known} value={known} />
        ))}
      </datalist>
      <fieldset>
        <legend>Scope</legend>
        <label>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'file'}
            onChange={() => setScope('file')}
          />{' '}
          Files matching a path
        </label>{' '}
        <label>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'global'}
            onChange={() => setScope('global')}
          />{' '}
          Everywhere (global)
        </label>
      </fieldset>
      {scope === 'file' && (
        <Field
          id={`${id}-path`}
          label="Path"
          hint="A file or a glob: *, ** and ? match"
          error={errorFor('path')}
        >
          {(wiring) => (
            <input {...wiring} value={path} onChange={(event) => setPath(event.target.value)} required />
          )}
        </Field>
      )}
      <Field
        id={`${id}-justification`}
        label="Justification"
        hint={`Why this pattern is legitimate here; required, at least ${WHITELIST_JUSTIFICATION_MIN} characters`}
        error={errorFor('justification')}
      >
        {(wiring) => (
          <textarea
            {...wiring}
            rows={3}
            maxLength={2000}
            value={justification}
            onChange={(event) => setJustification(event.target.value)}
            required
          />
        )}
      </Field>
      {error && error.field === null && (
        <p className="notice error" role="alert">
          {error.text}
        </p>
      )}
      {error && error.field !== null && (
        <p className="visually-hidden" role="alert">
          {error.text}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add to the whitelist'}
        </button>
      </div>
    </form>
  );
}
