import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

// Email goes to a port where no SMTP server listens, so each delivery fails with a reason to show.
const e2e = withE2e({ env: { GATEHOUSE_SMTP_URL: 'smtp://127.0.0.1:9' } });

describe('notifications in the web app', () => {
  it('lets a person choose their channels and email address on the Account screen', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Notifications', level: 2 }).waitFor();
    const email = page.getByRole('checkbox', { name: 'Email' });
    expect(await email.isChecked()).toBe(true);
    // This server has no Slack configured: it is not offered, and the screen says why.
    await page.getByText('Not set up on this server: Slack. An admin can configure it.').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Slack' }).count()).toBe(0);
    await page.getByLabel('Email address').fill('dana@example.test');
    await page.getByRole('button', { name: 'Save notification choices' }).click();
    await page.getByText('Your notification choices are saved.').waitFor();
    await expectAccessible(page, 'the account screen with notification choices');
    const saved = await env.http.call('GET', '/v1/me/notification-channels', { token: env.developer.token });
    expect(saved.body).toMatchObject({
      channels: ['email', 'browser'],
      chosen: true,
      email: 'dana@example.test',
    });
  });

  it('shows a tech lead the deliveries with their errors and lets them add a rule', async () => {
    const env = e2e();
    await env.http.call('PUT', '/v1/me/notification-channels', {
      token: env.techLead.token,
      body: { channels: ['email'], email: 'lead@example.test' },
    });
    await env.openGate({ tool: 'shell', args: { command: 'rm -rf build' }, title: 'Clean the build' });
    const page = await env.pageAs(env.techLead);
    await page.goto('/notifications');
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await eventually(async () => {
      await page.reload();
      await page
        .getByText(/ECONNREFUSED|connect/)
        .first()
        .waitFor({ timeout: 1000 });
      return true;
    });
    await page.getByText('No rule is enabled').waitFor();
    await page.getByLabel('Name').fill('Critical to leads');
    await page.getByRole('checkbox', { name: 'critical' }).check();
    await page.getByRole('checkbox', { name: 'tech_lead' }).check();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('cell', { name: 'Critical to leads', exact: true }).waitFor();
    await expectAccessible(page, 'the notifications screen');
    const rules = await env.http.call('GET', '/v1/notification-rules', { token: env.techLead.token });
    expect(rules.body.rules).toMatchObject([
      { name: 'Critical to leads', risks: ['critical'], roles: ['tech_lead'] },
    ]);
  });
});
