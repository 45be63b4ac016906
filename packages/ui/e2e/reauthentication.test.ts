import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const SIGNED_POLICY = `${DEFAULT_POLICY_YAML}
  - id: signed-payments
    priority: 950
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
`;

const SIX_MINUTES = 6 * 60_000;
const NEW_PASSWORD = 'the first admin finally has one';

describe('a change that needs a recent sign-in, over 5 minutes after signing in', () => {
  it('tells a first admin without a password how to register a key, never asking for a password', async () => {
    const env = e2e();
    const put = await env.http.call('PUT', '/v1/policy', {
      token: env.admin.token,
      body: { source: SIGNED_POLICY },
    });
    expect(put.status).toBe(200);
    const gate = await env.openGate({ tool: 'wire_money', args: { amount: 120 }, title: 'Pay the invoice' });
    await env.advanceClock(SIX_MINUTES);

    const page = await env.pageAs(env.admin);
    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('button', { name: 'Create signing key' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'more than 5 minutes old' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`gatehouse admin login-link --name ${env.admin.name}`);
    expect(await page.getByLabel('Your password, to register the key').count()).toBe(0);
    expect(await page.getByText('send your password').count()).toBe(0);
    await page.getByText('Not registered').waitFor();
    await expectAccessible(page, 'a gate asking a password-less person to sign in again');

    // The way forward it names: a fresh link from the host, then the key registers without a password.
    await page.goto(await env.hostLoginLink(env.admin.name));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('button', { name: 'Register this key' }).click();
    await page.getByText('Registered', { exact: true }).waitFor();
  });

  it('shows a first admin without a password why setting one failed and what to do, then lets them', async () => {
    const env = e2e();
    await env.advanceClock(SIX_MINUTES);
    const page = await env.pageAs(env.admin);
    await page.goto('/account');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'more than 5 minutes old' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`gatehouse admin login-link --name ${env.admin.name}`);
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await expectAccessible(page, 'the account screen asking a password-less person to sign in again');
    const me = await env.api('GET', '/v1/me', { token: env.admin.token });
    expect(me.hasPassword).toBe(false);

    await page.goto(await env.hostLoginLink());
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.goto('/account');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    const login = await env.http.call('POST', '/v1/auth/login', {
      body: { name: env.admin.name, password: NEW_PASSWORD },
    });
    expect(login.status).toBe(200);
  });

  it('asks a person with a password for it, in words, to register a key', async () => {
    const env = e2e();
    await env.advanceClock(SIX_MINUTES);
    const gate = await env.openGate({ tool: 'wire_money', args: { amount: 80 }, title: 'Pay the rent' });
    const page = await env.pageAs(env.developer);
    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('button', { name: 'Create signing key' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter your current password' }).waitFor();
    expect(await page.getByText('send your password').count()).toBe(0);
    await expectAccessible(page, 'a gate asking for the password to register a key');
    await page.getByLabel('Your password, to register the key').fill('not the password at all');
    await page.getByRole('button', { name: 'Confirm and register' }).click();
    await page.getByText('That is not your current password.').waitFor();
    await page.getByLabel('Your password, to register the key').fill(env.developer.password);
    await page.getByRole('button', { name: 'Confirm and register' }).click();
    await page.getByText('Registered', { exact: true }).waitFor();
  });
});
