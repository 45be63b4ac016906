import { type FormEvent, useState } from 'react';
import { useSession } from '../app/session.js';
import { formatFingerprint } from '../signing/browser-key.js';
import type { SigningKeyControl } from '../signing/use-signing-key.js';
import { ReauthNeeded } from './ReauthNeeded.js';

/** Asks for the password again when the sign-in is too old to register a key on its own. */
function ConfirmPassword({ signing, disabled }: { signing: SigningKeyControl; disabled: boolean }) {
  const [password, setPassword] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    void signing.register(password).then(() => setPassword(''));
  }
  return (
    <form className="row" onSubmit={submit}>
      <label htmlFor="signing-password">Your password, to register the key</label>
      <input
        id="signing-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <button type="submit" disabled={disabled || signing.busy || password === ''}>
        Confirm and register
      </button>
    </form>
  );
}

/** For gates that need a signed decision: this browser's key, its fingerprint, and setting it up. */
export function SigningPanel({
  signing,
  disabled,
  error,
}: {
  signing: SigningKeyControl;
  disabled: boolean;
  /** The server's or the form's complaint about the signature. */
  error: string | null;
}) {
  const { state, busy } = signing;
  const session = useSession();
  const person = session.state.status === 'signed-in' ? session.state : null;
  const hasPassword = person?.hasPassword === true;
  return (
    <div className="signing" id="signing">
      <h3>Signed decision</h3>
      <p>
        This gate needs a signed decision. Your browser signs it with an Ed25519 key that never leaves this
        browser; the server checks it against your registered public key.
      </p>
      {state.status === 'loading' && <p className="muted">Looking for this browser’s signing key…</p>}
      {state.status === 'unavailable' && (
        <p className="notice error">This browser cannot sign decisions: {state.reason}.</p>
      )}
      {state.status === 'none' && (
        <>
          <p>This browser has no signing key for you yet.</p>
          <button type="button" onClick={() => void signing.create()} disabled={disabled || busy}>
            {busy ? 'Creating key…' : 'Create signing key'}
          </button>
        </>
      )}
      {state.status === 'ready' && (
        <>
          <p>
            Key fingerprint: <code className="fingerprint">{formatFingerprint(state.key.fingerprint)}</code>{' '}
            {state.registered ? (
              <span className="badge band-high">Registered</span>
            ) : (
              <span className="badge band-medium">Not registered</span>
            )}
          </p>
          {!state.registered && signing.passwordNeeded && (
            <ReauthNeeded
              hasPassword={hasPassword}
              userName={person?.user.name ?? ''}
              action="register this key"
            />
          )}
          {!state.registered && signing.passwordNeeded && hasPassword && (
            <ConfirmPassword signing={signing} disabled={disabled} />
          )}
          {!state.registered && (
            <div className="row">
              <button type="button" onClick={() => void signing.register()} disabled={disabled || busy}>
                Register this key
              </button>
              <button type="button" onClick={() => void signing.create()} disabled={disabled || busy}>
                Create a new key
              </button>
            </div>
          )}
        </>
      )}
      {signing.error && (
        <p className="field-error" role="alert">
          {signing.error}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
