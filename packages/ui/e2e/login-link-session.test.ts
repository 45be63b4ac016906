import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

describe('a login link opened in a signed-in browser', () => {
  it('signs the browser in as the link’s person, replacing the session it had', async () => {
    const env = e2e();
    const issued = await env.api('POST', `/v1/users/${env.viewer.id}/login-link`, { token: env.admin.token });
    expect(issued.path).toMatch(/^\/login#token=ghl_/);
    const page = await env.pageAs(env.developer);
    await page.goto('/inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

    await page.goto(issued.path);
    const whoAmI = () =>
      page.evaluate(async () => {
        const answer = await fetch('/v1/me');
        return ((await answer.json()) as { user?: { name: string } }).user?.name ?? null;
      });
    await eventually(async () => (await whoAmI()) === env.viewer.name, {
      what: 'the browser signed in as the person the link was for',
    });
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
  });
});
