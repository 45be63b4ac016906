import { type OidcProviderProcess, startOidcProvider } from 'gatehouse-hitl-server/testing';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { type E2e, startE2e } from './harness.js';

let provider: OidcProviderProcess;
let env: E2e;

beforeAll(async () => {
  provider = await startOidcProvider();
  env = await startE2e({
    env: {
      GATEHOUSE_SSO_ISSUER: provider.issuer,
      GATEHOUSE_SSO_CLIENT_ID: provider.clientId,
      GATEHOUSE_SSO_CLIENT_SECRET: provider.clientSecret,
      GATEHOUSE_SSO_SCOPES: 'openid profile email groups',
      GATEHOUSE_SSO_ROLES: 'gatehouse-admins: admin, leads: tech_lead, engineering: developer',
      GATEHOUSE_SSO_NAME: 'Test ID',
    },
  });
}, 120_000);
afterEach(() => {
  const errors = env?.pageErrors.splice(0) ?? [];
  if (errors.length > 0) throw new Error(`errors in the page:\n${errors.join('\n')}`);
});
afterAll(async () => {
  await env?.close();
  await provider?.stop();
});

/** Clicks through the provider's own login and consent pages. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('single sign-on in the browser', () => {
  it('signs a person in through the provider’s login and consent pages and lands in the inbox with the mapped role', async () => {
    const page = await env.anonymousPage();
    await page.goto('/inbox');
    // Passwords stay for small set-ups: the form is still there beside the provider's button.
    await page.getByLabel('Name').waitFor();
    await page.getByRole('link', { name: 'Sign in with Test ID' }).waitFor();
    await expectAccessible(page, 'the login screen with single sign-on');
    await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
    await signInAtProvider(page, 'lee');

    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(new URL(page.url()).origin).toBe(env.url);
    const whoami = page.locator('.whoami');
    await whoami.getByText('lee').waitFor();
    expect(await whoami.locator('.role-badge').textContent()).toBe('Tech lead');
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'gatehouse_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('signs out of Gatehouse and of the provider, without the no-password warning, back to the sign-in screen', async () => {
    const page = await env.anonymousPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Test ID' }).click();
    await signInAtProvider(page, 'dana');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(await page.locator('.whoami .role-badge').textContent()).toBe('Developer');
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'gatehouse_session');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign out of the test provider?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.getByRole('link', { name: 'Sign in with Test ID' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    const me = await env.http.call('GET', '/v1/me', { token: session?.value as string });
    expect(me.status).toBe(401);
  });

  it('keeps password sign-in working on a server with single sign-on', async () => {
    const page = await env.anonymousPage();
    await page.goto('/login');
    await page.getByLabel('Name').fill(env.developer.name);
    await page.getByLabel('Password').fill(env.developer.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  });
});
