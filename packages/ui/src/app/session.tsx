import { authRoutes, type Role, type SigningKeyDocument, type UserDocument } from 'gatehouse-hitl-protocol';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { callApi, setUnauthorizedHandler } from '../api/client.js';
import { atLeast } from './roles.js';

export type User = UserDocument;
export type SigningKey = SigningKeyDocument;

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; reason: string | null }
  | {
      status: 'signed-in';
      user: User;
      keys: SigningKey[];
      hasPassword: boolean;
      /** Signs in through the OpenID provider: signing out locks nobody out. */
      singleSignOn: boolean;
    };

export interface Session {
  state: SessionState;
  /** The signed-in person; throws outside the signed-in part of the app. */
  user: User;
  /** Whether the signed-in person's role is at least `role`; the server still checks every call. */
  can(role: Role): boolean;
  login(name: string, password: string): Promise<void>;
  loginWithLink(token: string): Promise<void>;
  logout(): Promise<void>;
  /** Sets or changes the password; `currentPassword` is needed when one is set and the sign-in is old. */
  setPassword(input: { currentPassword?: string; newPassword: string }): Promise<void>;
  /** Re-reads who is signed in and their keys. */
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Holds who is signed in; the session itself is the HttpOnly cookie the server sets. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      const me = await callApi(authRoutes.me);
      if (me.kind !== 'user')
        setState({ status: 'signed-out', reason: 'Agent tokens cannot use the web app' });
      else
        setState({
          status: 'signed-in',
          user: me.user,
          keys: me.keys,
          hasPassword: me.hasPassword,
          singleSignOn: me.singleSignOn === true,
        });
    } catch {
      setState({ status: 'signed-out', reason: null });
    }
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() =>
      setState({ status: 'signed-out', reason: 'Your session has ended; sign in again' }),
    );
    void refresh();
  }, [refresh]);

  const session = useMemo<Session>(
    () => ({
      state,
      get user() {
        if (state.status !== 'signed-in') throw new Error('nobody is signed in');
        return state.user;
      },
      can: (role) => state.status === 'signed-in' && atLeast(state.user.role, role),
      async login(name, password) {
        await callApi(authRoutes.login, { body: { name, password } });
        await refresh();
      },
      async loginWithLink(token) {
        await callApi(authRoutes.loginWithLink, { body: { token } });
        await refresh();
      },
      async logout() {
        try {
          const { signOutUrl } = await callApi(authRoutes.logout);
          // Signed in through the provider: end that session too, on the provider's own page.
          if (signOutUrl !== undefined) window.location.assign(signOutUrl);
        } finally {
          setState({ status: 'signed-out', reason: null });
        }
      },
      async setPassword(input) {
        await callApi(authRoutes.setPassword, { body: input });
        await refresh();
      },
      refresh,
    }),
    [state, refresh],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
