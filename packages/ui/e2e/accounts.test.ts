import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const SIGNED_POLICY = `${DEFAULT_POLICY_YAML}
  - id: signed-payments
    priority: 950
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
`;

const NEW_PASSWORD = 'the first admin finally has one';

describe('accounts in the web app', () => {
  it('warns a first admin with no password before signing out, and lets them set one first', async () => {
    const env = e2e();
    const page = await env.pageAs(env.admin);
    await page.goto('/inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out without a password?' });
    await dialog.waitFor();
    await expectAccessible(page, 'the sign-out warning');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await expectAccessible(page, 'the account screen');

    // With a password, signing out just signs out, and the password signs back in.
    const login = await env.http.call('POST', '/v1/auth/login', {
      body: { name: env.admin.name, password: NEW_PASSWORD },
    });
    expect(login.status).toBe(200);
    const other = await env.pageAs({ ...env.admin, token: login.body.token });
    await other.goto('/inbox');
    await other.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('lets an admin hand a person a one-time login link from the Users screen', async () => {
    const env = e2e();
    const page = await env.pageAs(env.admin);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('button', { name: `Login link for ${env.viewer.name}` }).click();
    const field = page.getByLabel('Login link', { exact: true });
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(/\/login#token=ghl_/);

    const visitor = await env.anonymousPage();
    await visitor.goto(new URL(link).pathname + new URL(link).hash);
    await visitor.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await visitor.getByText(env.viewer.name, { exact: false }).first().waitFor();
  });

  it('registers a browser key with proof and signs the feedback of a signed decision', async () => {
    const env = e2e();
    const put = await env.http.call('PUT', '/v1/policy', {
      token: env.admin.token,
      body: { source: SIGNED_POLICY },
    });
    expect(put.status).toBe(200);
    const gate = await env.openGate({ tool: 'wire_money', args: { amount: 120 }, title: 'Pay the invoice' });
    expect(gate.signatureRequired).toBe(true);

    const page = await env.pageAs(env.developer);
    await page.goto(`/gates/${gate.id}`);
    await page.getByRole('button', { name: 'Create signing key' }).click();
    await page.getByText('Registered', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add: feedback sent with the approval (Approve)' }).click();
    await page.getByLabel('Feedback sent with the approval (Approve)').fill('invoice 7 checked');
    await page
      .getByRole('button', { name: /^Approve\b/ })
      .first()
      .click();
    await eventually(
      async () => {
        const view = await env.api('GET', `/v1/gates/${gate.id}`, { token: env.admin.token });
        return view.gate.status === 'approved';
      },
      { what: 'the signed gate approved' },
    );
    const view = await env.api('GET', `/v1/gates/${gate.id}`, { token: env.admin.token });
    expect(view.gate.decision).toMatchObject({ feedback: 'invoice 7 checked', decidedBy: env.developer.id });
    expect(view.gate.decision.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});
