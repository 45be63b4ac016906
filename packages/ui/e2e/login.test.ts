import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

describe('signing in', () => {
  it('signs the first admin in with the one-time link and takes the token out of the address', async () => {
    const { adminPage: page, admin, server } = e2e();
    // The harness opened /login#token=… in this page before any test.
    expect(new URL(page.url()).pathname).toBe('/inbox');
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    await page.getByText(admin.name, { exact: false }).first().waitFor();

    // The link works once: opened again in another browser, it is refused and says so.
    const other = await e2e().anonymousPage();
    await other.goto(`/login#token=${server.loginToken}`);
    await other.getByText(/login link did not work/i).waitFor();
    expect(await other.evaluate(() => window.location.hash)).toBe('');
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('signs a person in with name and password and shows the inbox', async () => {
    const { developer } = e2e();
    const page = await e2e().anonymousPage();
    await page.goto('/inbox');
    const name = page.getByLabel('Name');
    await name.waitFor();
    await expectAccessible(page, 'the login screen');
    await screenshot(page, 'login');

    await name.fill(developer.name);
    await page.getByLabel('Password').fill(developer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByText(developer.name, { exact: false }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/inbox');

    // The session is the HttpOnly cookie, out of reach of the page's scripts.
    expect(await page.evaluate(() => document.cookie)).not.toContain('gatehouse_session');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'gatehouse_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
  });

  it("shows the server's refusal for a wrong password and signs nobody in", async () => {
    const { developer } = e2e();
    const page = await e2e().anonymousPage();
    await page.goto('/login');
    await page.getByLabel('Name').fill(developer.name);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/name or password|invalid|wrong/i);
    expect(await page.context().cookies()).toEqual([]);
  });

  it('returns to the emailed decision link that asked for the sign-in, and never to another site', async () => {
    const { techLead } = e2e();
    const page = await e2e().anonymousPage();
    const back = '/v1/email-actions?token=abc.def';
    await page.goto(`/login#next=${encodeURIComponent(back)}`);
    await page.getByText('After signing in you go back to the decision from your email.').waitFor();
    // The link's token is taken out of the address at once.
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    await page.getByLabel('Name').fill(techLead.name);
    await page.getByLabel('Password').fill(techLead.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The server's own page for the link (this token is not a real one, so it says so).
    await page.getByRole('heading', { name: 'Link not valid' }).waitFor();
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(back);

    // Signed in already, the sign-in link goes straight back too.
    await page.goto(`/login#next=${encodeURIComponent(back)}`);
    await page.getByRole('heading', { name: 'Link not valid' }).waitFor();

    // Anything but an emailed decision link of this server is ignored: the inbox opens instead.
    for (const elsewhere of [
      'https://evil.example/',
      '//evil.example/v1/email-actions?token=x',
      '/inbox?x=1',
    ]) {
      await page.goto(`/login#next=${encodeURIComponent(elsewhere)}`);
      await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
      expect(new URL(page.url()).origin).toBe(new URL(e2e().server.url).origin);
    }
  });

  it('signs out and is back at the login form', async () => {
    const page = await e2e().pageAs(e2e().techLead);
    await page.goto('/inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/v1/me')).status);
    expect(me).toBe(401);
  });
});
