import { ssoRoutes } from 'gatehouse-hitl-protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { callApi, errorText } from '../api/client.js';
import { takeLinkToken } from '../app/link-token.js';
import { takeReturnPath } from '../app/return-path.js';
import { useSession } from '../app/session.js';
import { Field } from '../components/Field.js';

/** Where single sign-on brings the browser back: the page it was on, or the inbox. */
function ssoStartHref(returnTo: string | null): string {
  const { pathname, search } = window.location;
  const here = pathname === '/login' || pathname.startsWith('//') ? '/' : `${pathname}${search}`;
  return `${ssoRoutes.ssoStart.path}?returnTo=${encodeURIComponent(returnTo ?? here)}`;
}

/** Sign in with a name and password, through the OpenID provider, or from a one-time link (`/login#token=ghl_…`). */
export function LoginScreen({ reason }: { reason: string | null }) {
  const session = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [linkPending, setLinkPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const linkTried = useRef(false);
  const [returnTo] = useState(takeReturnPath);
  const [provider, setProvider] = useState<string | null>(null);

  useEffect(() => {
    callApi(ssoRoutes.ssoSettings)
      .then((settings) => setProvider(settings.enabled ? settings.providerName : null))
      .catch(() => setProvider(null));
  }, []);

  useEffect(() => {
    if (linkTried.current) return;
    linkTried.current = true;
    const token = takeLinkToken();
    if (token === null) return;
    setLinkPending(true);
    session.loginWithLink(token).catch((e: unknown) => {
      setError(`The login link did not work: ${errorText(e)}`);
      setLinkPending(false);
    });
  }, [session]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await session.login(name.trim(), password);
      // Back to the emailed link that asked for the sign-in (a page of the server, not of this app).
      if (returnTo !== null) window.location.assign(returnTo);
    } catch (e) {
      setError(errorText(e));
      setPassword('');
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page login-page">
      <div className="card login-card">
        <h1>Sign in to Gatehouse</h1>
        {reason && !error && <p className="notice info">{reason}</p>}
        {returnTo !== null && !error && (
          <p className="notice info">After signing in you go back to the decision from your email.</p>
        )}
        {linkPending && (
          <p className="notice info" role="status">
            Signing in with your login link…
          </p>
        )}
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        {provider !== null && (
          <>
            <a className="button primary sso-button" href={ssoStartHref(returnTo)}>
              Sign in with {provider}
            </a>
            <p className="muted sso-or">or with a Gatehouse name and password</p>
          </>
        )}
        <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
          <Field id="login-name" label="Name">
            {(wiring) => (
              <input
                {...wiring}
                name="username"
                autoComplete="username"
                required
                maxLength={200}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            )}
          </Field>
          <Field id="login-password" label="Password">
            {(wiring) => (
              <input
                {...wiring}
                name="password"
                type="password"
                autoComplete="current-password"
                required
                maxLength={200}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="primary" disabled={busy || linkPending}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="muted">No account yet? Ask an admin to create one for you.</p>
      </div>
    </main>
  );
}
