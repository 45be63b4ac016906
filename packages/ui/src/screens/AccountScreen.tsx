import { type FormEvent, useState } from 'react';
import { useSession } from '../app/session.js';
import { NotificationChannels } from '../components/NotificationChannels.js';
import { PasswordField } from '../components/PasswordField.js';
import { isReauthRequired, ReauthNeeded } from '../components/ReauthNeeded.js';
import { SigningKeys } from '../components/SigningKeys.js';
import { useFieldError } from '../components/use-field-error.js';

type Notice = { ok: boolean; text: string } | null;

/** The signed-in person's own account: their password, their signing keys and the channels that notify them. */
export function AccountScreen() {
  const session = useSession();
  const hasPassword = session.state.status === 'signed-in' && session.state.hasPassword;
  const singleSignOn = session.state.status === 'signed-in' && session.state.singleSignOn;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, setError, fail, errorFor } = useFieldError();
  const [notice, setNotice] = useState<Notice>(null);
  const [reauth, setReauth] = useState(false);
  const userName = session.state.status === 'signed-in' ? session.state.user.name : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (next.length < 12) return setError({ field: 'newPassword', text: 'Use at least 12 characters.' });
    if (next !== again) return setError({ field: 'again', text: 'The two new passwords differ.' });
    setBusy(true);
    setError(null);
    setReauth(false);
    try {
      await session.setPassword({ ...(current ? { currentPassword: current } : {}), newPassword: next });
      setCurrent('');
      setNext('');
      setAgain('');
      setNotice({ ok: true, text: hasPassword ? 'Your password is changed.' : 'Your password is set.' });
    } catch (caught) {
      fail(caught);
      setReauth(isReauthRequired(caught) && current === '');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page ops-page">
      <h1>Account</h1>
      {notice ? (
        <p className={`notice ${notice.ok ? 'ok' : 'error'}`} role="status">
          {notice.text}
        </p>
      ) : null}
      {hasPassword || singleSignOn ? null : (
        <p className="notice warn">
          You have no password yet: you signed in with a one-time link. Set one now, or you will need a new
          link to sign in again.
        </p>
      )}
      {singleSignOn ? (
        <p className="notice info">
          You sign in through your organisation's provider, so Gatehouse keeps no password for you.
        </p>
      ) : (
        <form
          className="card"
          onSubmit={(event) => void submit(event)}
          noValidate
          aria-labelledby="password-title"
        >
          <h2 id="password-title">{hasPassword ? 'Change your password' : 'Set a password'}</h2>
          <div className="form-grid">
            {hasPassword ? (
              <PasswordField
                id="current-password"
                label="Current password"
                hint="Not needed within 5 minutes of signing in."
                error={reauth ? 'Enter your current password.' : errorFor('currentPassword')}
                autoComplete="current-password"
                value={current}
                onChange={setCurrent}
              />
            ) : null}
            <PasswordField
              id="new-password"
              label="New password"
              hint="12 to 200 characters, not your name."
              error={errorFor('newPassword')}
              autoComplete="new-password"
              value={next}
              onChange={setNext}
            />
            <PasswordField
              id="new-password-again"
              label="New password again"
              error={errorFor('again')}
              autoComplete="new-password"
              value={again}
              onChange={setAgain}
            />
          </div>
          {reauth ? (
            <ReauthNeeded
              hasPassword={hasPassword}
              userName={userName}
              action={hasPassword ? 'change your password' : 'set your password'}
            />
          ) : null}
          {error && !reauth && !['currentPassword', 'newPassword', 'again'].includes(error.field ?? '') ? (
            <p className="notice error" role="alert">
              {error.text}
            </p>
          ) : null}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : hasPassword ? 'Change password' : 'Set password'}
          </button>
        </form>
      )}
      <SigningKeys />
      <NotificationChannels />
    </main>
  );
}
