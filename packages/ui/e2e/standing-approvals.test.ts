import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { askAndWait } from './agent-requests.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

/** The agent's call as `POST /v1/gates` answers it: allowed at once, or gated. */
async function outcomeOf(command: string): Promise<string> {
  const env = e2e();
  const answer = await env.api('POST', '/v1/gates', {
    token: env.agent.token,
    body: { tool: 'bash', args: { command } },
  });
  return answer.outcome;
}

describe('"approve always" with a scope', () => {
  it('remembers the prefix a person chose on a bash gate, lists it on the Rules screen and revokes it', async () => {
    const env = e2e();
    const pending = askAndWait(env.agent.sdk, {
      tool: 'bash',
      args: { command: 'npm test -- --runInBand' },
      title: 'Run the tests',
    });
    const gateId = await pending.gateId;
    const page = await env.pageAs(env.developer);
    await page.goto(`/gates/${gateId}`);
    await page.getByRole('heading', { name: 'Decision', level: 2 }).waitFor();
    await page.getByRole('button', { name: /^Always\b/ }).click();

    // The suggestion is chosen, with its prefix ready to edit.
    const prefixChoice = page.getByRole('radio', { name: /Commands that start with these words/ });
    await prefixChoice.waitFor();
    expect(await prefixChoice.isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /Only this exact command/ }).isChecked()).toBe(false);
    const prefix = page.getByLabel('The command starts with');
    expect(await prefix.inputValue()).toBe('npm test');

    await prefix.fill('npm run');
    await page.getByText(/does not cover the call it was chosen on/).waitFor();
    expect(await prefix.getAttribute('aria-invalid')).toBe('true');
    await prefix.fill('npm test');
    await page.getByLabel('Rule expires').selectOption({ label: '7 days' });
    await page
      .getByText(
        'Later bash calls whose command starts with “npm test” from this agent, in any of its runs go ahead without a gate, for 7 days.',
      )
      .waitFor();
    await expectAccessible(page, 'the "approve always" form');
    await screenshot(page, 'approve-always-scope');

    await page.getByRole('button', { name: 'Remember and allow' }).click();
    expect((await pending.answer).outcome).toBe('approved');
    const [rule] = (await env.api('GET', '/v1/rules', { token: env.admin.token })).rules;
    expect(rule).toMatchObject({
      scope: 'agent',
      match: { kind: 'prefix', prefix: 'npm test' },
      description: 'bash(npm test:*)',
      sourceGateId: gateId,
    });
    expect(await outcomeOf('npm test -- --watch')).toBe('allowed');
    expect(await outcomeOf('npm install left-pad')).toBe('gated');

    await page.goto('/rules');
    await page.getByRole('heading', { name: 'Remembered rules', level: 1 }).waitFor();
    await page.getByRole('cell', { name: /bash\(npm test:\*\)/ }).waitFor();
    await page.getByRole('cell', { name: /Agent: build-bot/ }).waitFor();
    await expectAccessible(page, 'the rules with their scopes');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: /^Yes, revoke/ }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked the rule bash(npm test:*).' }).waitFor();
    expect((await env.api('GET', '/v1/rules', { token: env.admin.token })).rules).toEqual([]);
    expect(await outcomeOf('npm test')).toBe('gated');
  });

  it('says on the policy screen which operations wait for a person under any policy', async () => {
    const page = await e2e().pageAs(e2e().developer);
    await page.goto('/policy');
    await page.getByRole('heading', { name: 'Policy', level: 1 }).waitFor();
    await page
      .getByText(
        /always-gated operations wait for a person.*deleting files, dropping database tables, modifying production configuration, installing system packages, running destructive shell commands, modifying \.env or secret files\./,
      )
      .waitFor();
    expect(e2e().pageErrors).toEqual([]);
  });
});
