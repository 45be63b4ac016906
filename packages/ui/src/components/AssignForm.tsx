import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorText } from '../api/client.js';
import { assignGate } from '../api/gate-review.js';
import { findPersonId, listPeople, type Person } from '../api/person-names.js';
import { atLeast, ROLE_LABEL } from '../app/roles.js';

function PeoplePicker({
  gate,
  chosen,
  onChange,
  disabled,
}: {
  gate: Gate;
  chosen: readonly string[];
  onChange(ids: string[]): void;
  disabled: boolean;
}) {
  const [people, setPeople] = useState<Person[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    listPeople().then(setPeople, (failure: unknown) => setError(errorText(failure)));
  }, []);
  if (error) return <p className="field-error">Could not list people: {error}</p>;
  if (people === null) return <p className="muted">Loading people…</p>;
  const eligible = people.filter((person) => !person.disabled && atLeast(person.role, gate.minRole));
  return (
    <fieldset className="field">
      <legend>Assign to</legend>
      {eligible.length === 0 && <p className="muted">Nobody has the role this gate needs.</p>}
      <ul className="checkbox-list">
        {eligible.map((person) => (
          <li key={person.id}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(person.id)}
                disabled={disabled}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...chosen, person.id] : chosen.filter((id) => id !== person.id),
                  )
                }
              />{' '}
              {person.name} <span className="muted">({ROLE_LABEL[person.role]})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function NameEntry({
  chosen,
  onChange,
  disabled,
  nameOf,
}: {
  chosen: readonly string[];
  onChange(ids: string[]): void;
  disabled: boolean;
  nameOf(id: string): string;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    setError(null);
    if (name.trim() === '') {
      setError('Type a login name first.');
      return;
    }
    try {
      const found = await findPersonId(name);
      if (found === null) setError(`Nobody is called ${name.trim()}.`);
      else {
        if (!chosen.includes(found)) onChange([...chosen, found]);
        setName('');
      }
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <div className="field">
      {chosen.length > 0 && (
        <ul className="chosen-people">
          {chosen.map((person) => (
            <li key={person}>
              {nameOf(person)}{' '}
              <button
                type="button"
                className="button-link"
                disabled={disabled}
                onClick={() => onChange(chosen.filter((other) => other !== person))}
              >
                Remove {nameOf(person)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${id}-name`}>Person to add</label>
      <div className="row">
        <input
          id={`${id}-name`}
          type="text"
          value={name}
          autoComplete="off"
          disabled={disabled}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void add();
            }
          }}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error ? true : undefined}
        />
        <button type="button" onClick={() => void add()} disabled={disabled}>
          Add person
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Assign / delegate: who may decide the gate (empty = anyone with its role). */
export function AssignForm({
  gate,
  blocked,
  canListPeople,
  nameOf,
  onAssigned,
}: {
  gate: Gate;
  blocked: string | null;
  /** Admins pick from the people list; everyone else types names. */
  canListPeople: boolean;
  nameOf(id: string): string;
  onAssigned(gate: Gate): void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<string[]>(gate.assignees);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const next = await assignGate(gate.id, chosen);
      onAssigned(next);
      setDone(next.assignees.length === 0 ? 'Open to anyone with the role.' : 'Assignees saved.');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const disabled = blocked !== null || busy;
  const current = gate.assignees.length === 0 ? null : gate.assignees.map(nameOf).join(', ');
  return (
    <form className="manage-form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Assign / delegate</h3>
      <p className="small">
        {current === null
          ? `Anyone with the role ${ROLE_LABEL[gate.minRole]} or higher may decide.`
          : `Assigned to ${current}.`}
      </p>
      {blocked ? (
        <p className="muted small">{blocked}</p>
      ) : canListPeople ? (
        <PeoplePicker gate={gate} chosen={chosen} onChange={setChosen} disabled={disabled} />
      ) : (
        <NameEntry chosen={chosen} onChange={setChosen} disabled={disabled} nameOf={nameOf} />
      )}
      {!blocked && (
        <button type="submit" disabled={disabled}>
          Save assignees
        </button>
      )}
      <p aria-live="polite" className="small">
        {done}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
