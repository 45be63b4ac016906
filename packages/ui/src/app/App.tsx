import { useEffect, useRef, useState } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { errorText } from '../api/client.js';
import { AccountScreen } from '../screens/AccountScreen.js';
import { AgentsScreen } from '../screens/AgentsScreen.js';
import { AuditScreen } from '../screens/AuditScreen.js';
import { GateScreen } from '../screens/GateScreen.js';
import { InboxScreen } from '../screens/InboxScreen.js';
import { LoginScreen } from '../screens/LoginScreen.js';
import { MetricsScreen } from '../screens/MetricsScreen.js';
import { NotificationsScreen } from '../screens/NotificationsScreen.js';
import { PolicyScreen } from '../screens/PolicyScreen.js';
import { ReviewHealthScreen } from '../screens/ReviewHealthScreen.js';
import { RulesScreen } from '../screens/RulesScreen.js';
import { RunScreen } from '../screens/RunScreen.js';
import { RunsScreen } from '../screens/RunsScreen.js';
import { ReviewRoute } from '../screens/review/ReviewRoute.js';
import { TrustScreen } from '../screens/TrustScreen.js';
import { UsersScreen } from '../screens/UsersScreen.js';
import { WhitelistsScreen } from '../screens/WhitelistsScreen.js';
import { Layout } from './Layout.js';
import { takeLinkToken } from './link-token.js';
import { takeReturnPath } from './return-path.js';
import { SessionProvider, useSession } from './session.js';

function SignedInRoutes() {
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <Redirect to="/inbox" replace />
        </Route>
        <Route path="/login">
          <SignedInLogin />
        </Route>
        <Route path="/inbox">
          <InboxScreen />
        </Route>
        <Route path="/gates/:id">{(params) => <GateScreen gateId={params.id} />}</Route>
        <Route path="/rules">
          <RulesScreen />
        </Route>
        <Route path="/trust">
          <TrustScreen />
        </Route>
        <Route path="/runs">
          <RunsScreen />
        </Route>
        <Route path="/runs/:id">{(params) => <RunScreen runId={params.id} />}</Route>
        <Route path="/reviews/:id">{(params) => <ReviewRoute reviewId={params.id} />}</Route>
        <Route path="/policy">
          <PolicyScreen />
        </Route>
        <Route path="/audit">
          <AuditScreen />
        </Route>
        <Route path="/metrics">
          <MetricsScreen />
        </Route>
        <Route path="/whitelists">
          <WhitelistsScreen />
        </Route>
        <Route path="/review-health">
          <ReviewHealthScreen />
        </Route>
        <Route path="/notifications">
          <NotificationsScreen />
        </Route>
        <Route path="/admin/agents">
          <AgentsScreen />
        </Route>
        <Route path="/admin/users">
          <UsersScreen />
        </Route>
        <Route path="/account">
          <AccountScreen />
        </Route>
        <Route>
          <main id="main" className="page">
            <h1>Not found</h1>
            <p>There is no page at this address.</p>
          </main>
        </Route>
      </Switch>
    </Layout>
  );
}

/**
 * `/login` while signed in: a login link signs in as its person, replacing this session; then back to
 * an emailed decision link that asked for the sign-in, else the inbox.
 */
function SignedInLogin() {
  const session = useSession();
  const [returnTo] = useState(takeReturnPath);
  const [linkToken] = useState(takeLinkToken);
  const [linkDone, setLinkDone] = useState(linkToken === null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const linkTried = useRef(false);
  useEffect(() => {
    if (linkToken === null || linkTried.current) return;
    linkTried.current = true;
    session.loginWithLink(linkToken).then(
      () => setLinkDone(true),
      (failure: unknown) => setLinkError(`The login link did not work: ${errorText(failure)}`),
    );
  }, [session, linkToken]);
  useEffect(() => {
    if (linkDone && returnTo !== null) window.location.replace(returnTo);
  }, [linkDone, returnTo]);
  if (linkError !== null) {
    return (
      <main id="main" className="page">
        <h1>Sign in</h1>
        <p className="notice error" role="alert">
          {linkError}. You are still signed in as {session.user.name}.
        </p>
      </main>
    );
  }
  if (!linkDone) {
    return (
      <p className="page-loading" role="status">
        Signing in with the link…
      </p>
    );
  }
  return returnTo === null ? <Redirect to="/inbox" replace /> : null;
}

function Gate() {
  const { state } = useSession();
  if (state.status === 'loading') {
    return (
      <p className="page-loading" role="status">
        Loading…
      </p>
    );
  }
  if (state.status === 'signed-out') return <LoginScreen reason={state.reason} />;
  return <SignedInRoutes />;
}

/** The reviewer's web app: sign in, then the inbox and the other screens. */
export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}
