import { type FormEvent, useState } from 'react';
import { errorText } from '../api/client.js';
import { renameSigningKey, revokeSigningKey } from '../api/signing-keys.js';
import { type SigningKey, useSession } from '../app/session.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { RelativeTime } from './RelativeTime.js';

/** What a person sees a key as: its name, or the start of its fingerprint until they name it. */
export function keyLabel(key: SigningKey): string {
  return key.name ?? `Unnamed key ${key.fingerprint.slice(0, 16)}`;
}

function RenameForm({ signingKey, onDone }: { signingKey: SigningKey; onDone(error: string | null): void }) {
  const [name, setName] = useState(signingKey.name ?? '');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await renameSigningKey(signingKey.id, name.trim() === '' ? null : name.trim());
      onDone(null);
    } catch (failure) {
      onDone(errorText(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="form-grid" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`key-name-${signingKey.id}`}>Key name</label>
      <input
        id={`key-name-${signingKey.id}`}
        value={name}
        maxLength={100}
        // biome-ignore lint/a11y/noAutofocus: the person asked to rename this key; typing goes here
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit" className="primary" disabled={busy}>
        Save name
      </button>
      <button type="button" onClick={() => onDone(null)} disabled={busy}>
        Cancel
      </button>
    </form>
  );
}

/** The signed-in person's signing keys in force, each with rename and revoke. */
export function SigningKeys() {
  const session = useSession();
  const keys = session.state.status === 'signed-in' ? session.state.keys : [];
  const [renaming, setRenaming] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<SigningKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function afterRename(failure: string | null) {
    setError(failure);
    if (failure === null) setRenaming(null);
    await session.refresh();
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      await revokeSigningKey(revoking.id);
      setRevoking(null);
      setError(null);
      await session.refresh();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="signing-keys-title">
      <h2 id="signing-keys-title">Signing keys</h2>
      <p className="muted">Keys that sign your decisions, one per browser. Revoke a key you no longer use.</p>
      {keys.length === 0 ? (
        <p>You have no signing key yet; a gate that needs a signature offers to make one.</p>
      ) : null}
      <ul>
        {keys.map((key) => (
          <li key={key.id}>
            {renaming === key.id ? (
              <RenameForm signingKey={key} onDone={(failure) => void afterRename(failure)} />
            ) : (
              <>
                <strong>{keyLabel(key)}</strong>{' '}
                <span className="muted">
                  added <RelativeTime at={key.createdAt} />,{' '}
                  {key.lastUsedAt === null ? (
                    'never used to sign'
                  ) : (
                    <>
                      last signed <RelativeTime at={key.lastUsedAt} />
                    </>
                  )}
                </span>{' '}
                <button
                  type="button"
                  aria-label={`Rename ${keyLabel(key)}`}
                  onClick={() => setRenaming(key.id)}
                >
                  Rename
                </button>{' '}
                <button
                  type="button"
                  className="danger"
                  aria-label={`Revoke ${keyLabel(key)}`}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {error && revoking === null ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={revoking ? `Revoke the key “${keyLabel(revoking)}”?` : 'Revoke the key?'}
        confirmLabel="Revoke key"
        danger
        busy={busy}
        error={revoking ? error : null}
        onConfirm={() => void revoke()}
        onCancel={() => {
          setRevoking(null);
          setError(null);
        }}
      >
        <p>Decisions signed with it can no longer be made; the browser that holds it will need a new key.</p>
      </ConfirmDialog>
    </section>
  );
}
