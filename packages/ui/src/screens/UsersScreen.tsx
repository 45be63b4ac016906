import { type FormEvent, useEffect, useState } from 'react';
import {
  createUser,
  issueLoginLink,
  listUsers,
  type Person,
  ROLES,
  type Role,
  updateUser,
} from '../api/admin.js';
import { errorText } from '../api/client.js';
import { ROLE_LABEL } from '../app/roles.js';
import { useSession } from '../app/session.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Field } from '../components/Field.js';
import { PasswordField } from '../components/PasswordField.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { useFieldError } from '../components/use-field-error.js';
import { useResource } from '../lib/use-resource.js';

type Notice = { ok: boolean; text: string } | null;

/** A login link shown once, to hand to the person by a channel you trust. */
function LoginLinkNotice({ name, url, onDone }: { name: string; url: string; onDone: () => void }) {
  return (
    <section className="notice warn one-time-token" aria-labelledby="login-link-title">
      <h2 id="login-link-title">Login link for {name}</h2>
      <p>
        <strong>It works once, for 15 minutes, and is shown only now.</strong> Give it to {name} yourself;
        whoever opens it is signed in as them.
      </p>
      <label htmlFor="login-link-url">Login link</label>
      <div className="row">
        <input
          id="login-link-url"
          className="mono token-field"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function CreateUserForm({ onCreated }: { onCreated: (person: Person) => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, setError, fail, errorFor } = useFieldError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setError({ field: 'name', text: 'Give the person a login name.' });
      return;
    }
    if (password.length < 12) {
      setError({ field: 'password', text: 'The password needs at least 12 characters.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const person = await createUser({ name: name.trim(), role, password });
      setName('');
      setPassword('');
      onCreated(person);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="create-user-title"
    >
      <h2 id="create-user-title">Add a person</h2>
      <div className="form-grid">
        <Field id="user-name" label="Name" error={errorFor('name')}>
          {(wiring) => (
            <input
              {...wiring}
              autoComplete="off"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <Field id="user-role" label="Role">
          {(wiring) => (
            <select {...wiring} value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((each) => (
                <option key={each} value={each}>
                  {ROLE_LABEL[each]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <PasswordField
          id="user-password"
          label="Password"
          hint="At least 12 characters."
          error={errorFor('password')}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
        />
      </div>
      {error && error.field !== 'name' && error.field !== 'password' ? (
        <p className="notice error" role="alert">
          {error.text}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add person'}
      </button>
    </form>
  );
}

function PersonRow({
  person,
  isSelf,
  disabled,
  onChangeRole,
  onToggle,
  onLink,
}: {
  person: Person;
  isSelf: boolean;
  disabled: boolean;
  onChangeRole: (person: Person, role: Role) => void;
  onToggle: (person: Person) => void;
  onLink: (person: Person) => void;
}) {
  const [role, setRole] = useState<Role>(person.role);
  useEffect(() => setRole(person.role), [person.role]);
  const selectId = `role-${person.id}`;
  return (
    <tr>
      <td data-label="Name">
        <div>
          {person.name}
          {isSelf ? <span className="muted"> (you)</span> : null}
          <div className="muted mono small">{person.id}</div>
        </div>
      </td>
      <td data-label="Role">
        <div className="row">
          <label htmlFor={selectId} className="visually-hidden">
            Role for {person.name}
          </label>
          <select
            id={selectId}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
            disabled={disabled}
          >
            {ROLES.map((each) => (
              <option key={each} value={each}>
                {ROLE_LABEL[each]}
              </option>
            ))}
          </select>
          <button
            type="button"
            onClick={() => onChangeRole(person, role)}
            disabled={disabled || role === person.role}
            aria-label={`Change role of ${person.name}`}
          >
            Change role
          </button>
        </div>
      </td>
      <td data-label="Status">
        {person.disabled ? (
          <span className="badge status-disabled">Disabled</span>
        ) : (
          <span className="badge status-active">Active</span>
        )}
      </td>
      <td data-label="Added">
        <RelativeTime at={person.createdAt} />
      </td>
      <td data-label="Access">
        <button
          type="button"
          className={person.disabled ? '' : 'danger'}
          onClick={() => onToggle(person)}
          disabled={disabled}
          aria-label={`${person.disabled ? 'Enable' : 'Disable'} ${person.name}`}
        >
          {person.disabled ? 'Enable' : 'Disable'}
        </button>{' '}
        <button
          type="button"
          onClick={() => onLink(person)}
          disabled={disabled || person.disabled}
          aria-label={`Login link for ${person.name}`}
        >
          Login link
        </button>
      </td>
    </tr>
  );
}

/** Admins add people, change their roles and disable them (which ends their sessions). */
export function UsersScreen() {
  const session = useSession();
  const isAdmin = session.can('admin');
  const me = session.state.status === 'signed-in' ? session.state.user.id : null;
  const { resource, reload } = useResource('users', listUsers);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [disabling, setDisabling] = useState<Person | null>(null);
  const [disableError, setDisableError] = useState<string | null>(null);
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);

  async function makeLink(person: Person) {
    setBusy(true);
    setNotice(null);
    try {
      const issued = await issueLoginLink(person.id);
      setLink({ name: person.name, url: `${window.location.origin}${issued.path}` });
    } catch (error) {
      setNotice({ ok: false, text: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  async function change(person: Person, update: { role?: Role; disabled?: boolean }): Promise<boolean> {
    setBusy(true);
    setNotice(null);
    try {
      const next = await updateUser(person.id, update);
      setNotice({
        ok: true,
        text:
          update.role !== undefined
            ? `${next.name} is now ${ROLE_LABEL[next.role].toLowerCase()}; it applies to their next request.`
            : next.disabled
              ? `${next.name} is disabled and signed out everywhere.`
              : `${next.name} can sign in again.`,
      });
      reload();
      return true;
    } catch (error) {
      const text = errorText(error);
      if (update.disabled === true) setDisableError(text);
      else setNotice({ ok: false, text });
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page ops-page">
      <h1>Users</h1>
      {notice ? (
        <p className={`notice ${notice.ok ? 'ok' : 'error'}`} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </p>
      ) : null}
      {link ? <LoginLinkNotice name={link.name} url={link.url} onDone={() => setLink(null)} /> : null}
      {isAdmin ? (
        <CreateUserForm
          onCreated={(person) => {
            setNotice({
              ok: true,
              text: `Added ${person.name} as ${ROLE_LABEL[person.role].toLowerCase()}.`,
            });
            reload();
          }}
        />
      ) : null}
      <section aria-labelledby="users-list-title">
        <h2 id="users-list-title">People</h2>
        {resource.status === 'loading' ? (
          <p role="status">Loading people…</p>
        ) : resource.status === 'error' ? (
          <p className="notice error" role="alert">
            Could not load people: {errorText(resource.error)}
          </p>
        ) : resource.value.length === 0 ? (
          <p className="notice info">Nobody yet.</p>
        ) : (
          <div className="table-scroll">
            <table className="stack-on-phone">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Added</th>
                  <th scope="col">
                    <span className="visually-hidden">Access</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {resource.value.map((person) => (
                  <PersonRow
                    key={person.id}
                    person={person}
                    isSelf={person.id === me}
                    disabled={busy || !isAdmin}
                    onChangeRole={(target, role) => void change(target, { role })}
                    onLink={(target) => void makeLink(target)}
                    onToggle={(target) => {
                      if (target.disabled) void change(target, { disabled: false });
                      else {
                        setDisableError(null);
                        setDisabling(target);
                      }
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.name ?? 'this person'}?`}
        confirmLabel="Disable"
        danger
        busy={busy}
        error={disableError}
        onConfirm={() => {
          if (disabling) void change(disabling, { disabled: true }).then((ok) => ok && setDisabling(null));
        }}
        onCancel={() => setDisabling(null)}
      >
        <p>They are signed out everywhere at once and cannot sign in until enabled again.</p>
      </ConfirmDialog>
    </main>
  );
}
