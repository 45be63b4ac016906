import { useEffect, useState } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AccountScreen } from '../screens/AccountScreen.js';
import { AgentsScreen } from '../screens/AgentsScreen.js';
import { AuditScreen } from '../screens/AuditScreen.js';
import { GateScreen } from '../screens/GateScreen.js';
import { InboxScreen } from '../screens/InboxScreen.js';
import { LoginScreen } from '../screens/LoginScreen.js';
import { MetricsScreen } from '../screens/MetricsScreen.js';
import { NotificationsScreen } from '../screens/NotificationsScreen.js';
import { PolicyScreen } from '../screens/PolicyScreen.js';
import { RulesScreen } from '../screens/RulesScreen.js';
import { RunScreen } from '../screens/RunScreen.js';
import { RunsScreen } from '../screens/RunsScreen.js';
import { ReviewRoute } from '../screens/review/ReviewRoute.js';
import { UsersScreen } from '../screens/UsersScreen.js';
import { WhitelistsScreen } from '../screens/WhitelistsScreen.js';
import { Layout } from './Layout.js';
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

/** `/login` while signed in: back to an emailed decision link that asked for the sign-in, else the inbox. */
function SignedInLogin() {
  const [returnTo] = useState(takeReturnPath);
  useEffect(() => {
    if (returnTo !== null) window.location.replace(returnTo);
  }, [returnTo]);
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
