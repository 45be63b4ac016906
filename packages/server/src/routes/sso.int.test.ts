import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSsoRoles, type SsoConfig } from '../auth/sso-config.js';
import type { Json } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { type OidcProviderProcess, startOidcProvider } from '../testing/oidc-provider-process.js';
import { createProviderBrowser, type ProviderBrowser } from '../testing/provider-sign-in.js';
import { bearer, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

let provider: OidcProviderProcess;
beforeAll(async () => {
  provider = await startOidcProvider();
}, 30_000);
afterAll(async () => {
  await provider?.stop();
});

function ssoConfig(): SsoConfig {
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: 'openid profile email groups',
    groupsClaim: 'groups',
    roles: parseSsoRoles('gatehouse-admins: admin, leads: tech_lead, engineering: developer'),
    providerName: 'Test ID',
  };
}

/** A fetch answer's JSON body, loosely typed as the tests read it. */
function jsonOf(response: Response): Promise<Json> {
  return response.json();
}

function cookieOf(response: Response, name: string): string | null {
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return line === undefined ? null : (line.split(';')[0] ?? null);
}

describe.each(dialects)(
  'single sign-on against a real OpenID provider on %s',
  (dialect) => {
    let server: ListeningApp<{ now(): number }>;
    afterEach(async () => {
      await server?.close();
    });

    async function start(): Promise<ListeningApp<{ now(): number }>> {
      server = await startListeningApp({ dialect, config: { sso: ssoConfig() } });
      return server;
    }

    /** The browser's start at Gatehouse: the provider's URL and the attempt cookie. */
    async function begin(returnTo?: string): Promise<{ location: string; cookie: string }> {
      const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
      const response = await fetch(`${server.url}/v1/auth/sso/start${query}`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      return {
        location: response.headers.get('location') as string,
        cookie: cookieOf(response, 'gatehouse_sso') as string,
      };
    }

    function callback(url: URL | string, cookie: string | null): Promise<Response> {
      return fetch(url, { redirect: 'manual', headers: cookie === null ? {} : { cookie } });
    }

    async function signIn(login: string, browser: ProviderBrowser = createProviderBrowser(provider.issuer)) {
      const { location, cookie } = await begin();
      const back = await browser.signIn(location, login);
      return { back, cookie, response: await callback(back, cookie) };
    }

    async function me(session: string) {
      return jsonOf(await fetch(`${server.url}/v1/me`, { headers: { cookie: session } }));
    }

    async function auditOf(kind: string) {
      const events = [];
      for await (const event of server.test.store.streamAudit()) if (event.kind === kind) events.push(event);
      return events;
    }

    const userCount = () => server.test.store.read(async (tx) => (await tx.listUsers()).length);

    it('sends the browser to the provider with PKCE, state and nonce, and keeps the attempt in an HttpOnly Lax cookie', async () => {
      await start();
      const { location, cookie } = await begin();
      const url = new URL(location);
      expect(url.origin).toBe(provider.issuer);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/v1/auth/sso/callback`);
      for (const name of ['state', 'nonce', 'code_challenge'])
        expect(url.searchParams.get(name)).toMatch(/.{20,}/);
      expect(cookie).toMatch(/^gatehouse_sso=/);
      const settings = await jsonOf(await fetch(`${server.url}/v1/auth/sso`));
      expect(settings).toEqual({ enabled: true, providerName: 'Test ID' });
    });

    it('creates the account on first sign-in with the role of its groups, starts a session, and audits both', async () => {
      await start();
      const before = await userCount();
      const { response } = await signIn('alice');
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/');
      const session = cookieOf(response, 'gatehouse_session') as string;
      expect(session).toMatch(/^gatehouse_session=ghs_/);
      expect(await me(session)).toEqual(
        expect.objectContaining({
          kind: 'user',
          user: expect.objectContaining({ name: 'alice', role: 'admin' }),
          hasPassword: false,
          singleSignOn: true,
        }),
      );
      // A password would outlive the person's access at the provider: none is kept.
      const password = await fetch(`${server.url}/v1/me/password`, {
        method: 'PUT',
        headers: { cookie: session, origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({ newPassword: 'a long enough password' }),
      });
      expect(password.status).toBe(403);
      expect(await server.test.services.users.hasPassword((await me(session)).user.id)).toBe(false);
      expect(await userCount()).toBe(before + 1);
      const [created] = await auditOf('user.created');
      expect(created?.data).toEqual(
        expect.objectContaining({ via: 'sso', issuer: provider.issuer, providerSubject: 'alice' }),
      );
      const started = (await auditOf('session.started')).at(-1);
      expect(started?.data).toEqual(expect.objectContaining({ via: 'sso' }));

      const again = await signIn('alice');
      expect(again.response.status).toBe(302);
      expect(await userCount()).toBe(before + 1);
    });

    it('sets the role from the groups on every sign-in, over a change made in Gatehouse', async () => {
      await start();
      const first = await signIn('lee');
      const { user } = await me(cookieOf(first.response, 'gatehouse_session') as string);
      expect(user.role).toBe('tech_lead');
      const demoted = await server.test.app.inject({
        method: 'PATCH',
        url: `/v1/users/${user.id}`,
        headers: bearer(server.test.tokens.admin),
        payload: { role: 'viewer' },
      });
      expect(demoted.statusCode).toBe(200);
      const second = await signIn('lee');
      expect((await me(cookieOf(second.response, 'gatehouse_session') as string)).user.role).toBe(
        'tech_lead',
      );
      const changes = await auditOf('user.role_changed');
      expect(changes.at(-1)?.data).toEqual(
        expect.objectContaining({ from: 'viewer', to: 'tech_lead', via: 'sso' }),
      );
    });

    it('never takes over a password account of the same name: the new account gets a name of its own', async () => {
      await start();
      const created = await server.test.app.inject({
        method: 'POST',
        url: '/v1/users',
        headers: bearer(server.test.tokens.admin),
        payload: { name: 'dana', password: 'a long enough password', role: 'viewer' },
      });
      expect(created.statusCode).toBe(201);
      const { response } = await signIn('dana');
      const { user } = await me(cookieOf(response, 'gatehouse_session') as string);
      expect(user).toEqual(expect.objectContaining({ name: 'dana-2', role: 'developer' }));
      expect(user.id).not.toBe(created.json().user.id);
    });

    it('refuses a person in no mapped group with 403, creates no account and audits the refusal', async () => {
      await start();
      const before = await userCount();
      const { response } = await signIn('olga');
      expect(response.status).toBe(403);
      const body = await jsonOf(response);
      expect(body.error.code).toBe('FORBIDDEN');
      expect(body.error.message).toContain('contractors');
      expect(body.error.message).toContain('GATEHOUSE_SSO_ROLES');
      expect(cookieOf(response, 'gatehouse_session')).toBeNull();
      expect(await userCount()).toBe(before);
      expect((await auditOf('login.failed')).at(-1)?.data).toEqual(
        expect.objectContaining({ via: 'sso', reason: 'no_mapped_group' }),
      );
    });

    it('refuses a disabled account with 403 and starts no session', async () => {
      await start();
      const first = await signIn('dana');
      const { user } = await me(cookieOf(first.response, 'gatehouse_session') as string);
      const disabled = await server.test.app.inject({
        method: 'PATCH',
        url: `/v1/users/${user.id}`,
        headers: bearer(server.test.tokens.admin),
        payload: { disabled: true },
      });
      expect(disabled.statusCode).toBe(200);
      const { response } = await signIn('dana');
      expect(response.status).toBe(403);
      expect((await jsonOf(response)).error.message).toContain('disabled');
      expect(cookieOf(response, 'gatehouse_session')).toBeNull();
    });

    it('refuses an id token made out to another audience and creates no account', async () => {
      await start();
      const before = await userCount();
      const { response } = await signIn('mallory');
      expect(response.status).toBe(401);
      const body = await jsonOf(response);
      expect(body.error.code).toBe('UNAUTHENTICATED');
      expect(body.error.message).toContain('"aud" (audience)');
      expect(await userCount()).toBe(before);
    });

    it('refuses an unknown state, a state without its browser cookie, and a callback replayed', async () => {
      await start();
      const forged = `${server.url}/v1/auth/sso/callback?code=abc&state=made-up`;
      expect((await callback(forged, null)).status).toBe(401);
      const { location, cookie } = await begin();
      const back = await createProviderBrowser(provider.issuer).signIn(location, 'dana');
      expect((await callback(back, null)).status).toBe(401);
      const other = await begin();
      expect((await callback(back, other.cookie)).status).toBe(401);
      // The state was not used by those refusals: its own browser still signs in, once.
      const first = await callback(back, cookie);
      expect(first.status).toBe(302);
      const replay = await callback(back, cookie);
      expect(replay.status).toBe(401);
      expect((await jsonOf(replay)).error.message).toContain('start again');
    });

    it('refuses a code replayed into a new sign-in: the provider does not redeem it twice', async () => {
      await start();
      const used = await signIn('dana');
      expect(used.response.status).toBe(302);
      const fresh = await begin();
      const replayed = new URL(used.back);
      replayed.searchParams.set('state', new URL(fresh.location).searchParams.get('state') as string);
      const response = await callback(replayed, fresh.cookie);
      expect(response.status).toBe(401);
      expect((await jsonOf(response)).error.message).toContain('refused');
      expect(cookieOf(response, 'gatehouse_session')).toBeNull();
    });

    it('signs out of Gatehouse and hands over the provider’s sign-out page, which sends the browser back', async () => {
      await start();
      const browser = createProviderBrowser(provider.issuer);
      const { response } = await signIn('alice', browser);
      const session = cookieOf(response, 'gatehouse_session') as string;
      const out = await fetch(`${server.url}/v1/auth/logout`, {
        method: 'POST',
        headers: { cookie: session, origin: server.url },
      });
      expect(out.status).toBe(200);
      const body = await jsonOf(out);
      expect(body).toEqual(expect.objectContaining({ ok: true, hasPassword: false }));
      const signOut = new URL(body.signOutUrl);
      expect(signOut.origin).toBe(provider.issuer);
      expect(signOut.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
      expect((await fetch(`${server.url}/v1/me`, { headers: { cookie: session } })).status).toBe(401);
      expect((await browser.signOut(signOut.href)).href).toBe(`${server.url}/login`);

      const password = await server.test.app.inject({
        method: 'POST',
        url: '/v1/auth/logout',
        headers: bearer(server.test.tokens.developer),
      });
      expect(password.json()).not.toHaveProperty('signOutUrl');
    });
  },
  60_000,
);

describe('without single sign-on configured', () => {
  let server: ListeningApp<{ now(): number }>;
  afterAll(async () => {
    await server?.close();
  });

  it('says so to the sign-in screen and refuses a start with 404', async () => {
    server = await startListeningApp({ dialect: 'sqlite' });
    expect(await jsonOf(await fetch(`${server.url}/v1/auth/sso`))).toEqual({
      enabled: false,
      providerName: null,
    });
    const start = await fetch(`${server.url}/v1/auth/sso/start`, { redirect: 'manual' });
    expect(start.status).toBe(404);
    expect((await jsonOf(start)).error.message).toContain('GATEHOUSE_SSO_ISSUER');
  });
});
