import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

// Two approvals by two people on one day earn a proposal here, so the test needs no clock.
const POLICY = `name: trust-e2e
defaultAction: gate
rules: []
trust:
  minApprovals: 2
  minPeople: 2
  minDays: 0
`;

async function outcomeOf(command: string): Promise<string> {
  const env = e2e();
  const answer = await env.api('POST', '/v1/gates', {
    token: env.agent.token,
    body: { tool: 'bash', args: { command } },
  });
  return answer.outcome;
}

/** The agent runs `command` twice; a developer approves once and the tech lead once. */
async function earn(command: string): Promise<void> {
  const env = e2e();
  const stored = await env.api('PUT', '/v1/policy', {
    token: env.admin.token,
    body: { source: POLICY, format: 'yaml' },
  });
  expect(stored.version).toBeGreaterThan(0);
  for (const person of [env.developer, env.techLead]) {
    const gate = await env.openGate({ tool: 'bash', args: { command }, title: `Run ${command}` });
    const decided = await env.api('POST', `/v1/gates/${gate.id}/decide`, {
      token: person.token,
      body: { option: 'approve' },
    });
    expect(decided.gate.status).toBe('approved');
  }
}

// Two approved phase reviews by two people on one day earn one autonomy level here.
const AUTONOMY_POLICY = `name: trust-autonomy-e2e
defaultAction: gate
rules: []
trust:
  autonomyMinApprovals: 2
  autonomyMinPeople: 2
  autonomyMinDays: 0
`;

/** Two runs of the agent end a phase; a developer approves one phase review and the tech lead the other. */
async function earnAutonomy(): Promise<void> {
  const env = e2e();
  await env.api('PUT', '/v1/policy', {
    token: env.admin.token,
    body: { source: AUTONOMY_POLICY, format: 'yaml' },
  });
  for (const person of [env.developer, env.techLead]) {
    const created = await env.http.call('POST', '/v1/runs', {
      token: env.agent.token,
      body: { title: 'A phase to review' },
    });
    const runId: string = created.body.run.id;
    await env.approvePlan(runId);
    const checkpoint = await env.http.call('POST', `/v1/runs/${runId}/checkpoint`, {
      token: env.agent.token,
      body: { phase: 1, type: 'strategic', jobComplete: false },
    });
    expect(checkpoint.body.gate?.type).toBe('phase_review');
    const decided = await env.api('POST', `/v1/gates/${checkpoint.body.gate.id}/decide`, {
      token: person.token,
      body: { option: 'approve' },
    });
    expect(decided.gate.status).toBe('approved');
  }
}

describe('the Trust screen', () => {
  it('shows an autonomy proposal with its evidence and accepts it', async () => {
    const env = e2e();
    await earnAutonomy();
    const page = await env.pageAs(env.techLead);
    await page.goto('/trust');
    const card = page.getByRole('article', { name: 'Autonomy partial → review for build-bot' });
    await card.waitFor();
    await card.getByText(/^2 by 2 people/).waitFor();
    await card.getByText(/No phase review rejected, steered or answered with changes/).waitFor();
    expect(await card.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await expectAccessible(page, 'the Trust screen with an autonomy proposal');

    await card.getByRole('button', { name: 'Accept' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Accepted: build-bot now works at review autonomy (was partial).' })
      .waitFor();
    const agents = await env.api('GET', '/v1/agents', { token: env.admin.token });
    const bot = agents.agents.find((agent: { name: string }) => agent.name === 'build-bot');
    expect(bot.autonomy).toBe('review');
    await expectAccessible(page, 'the Trust screen after accepting an autonomy proposal');
    expect(env.pageErrors).toEqual([]);
  });

  it('shows a proposal with its evidence and replay, accepts it narrowed, and revokes the learned rule', async () => {
    const env = e2e();
    await earn('npm test');
    const page = await env.pageAs(env.techLead);
    await page.goto('/trust');
    await page.getByRole('heading', { name: 'Trust', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: /bash\(npm test:\*\) for build-bot/ });
    await card.waitFor();
    await card.getByText(/^2 by 2 people/).waitFor();
    await card
      .getByText(/Would have allowed 2 past gates; people rejected 0, steered 0 and edited 0/)
      .waitFor();
    await expectAccessible(page, 'the Trust screen with a proposal');

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('radio', { name: 'Only this exact command' }).check();
    expect(await card.getByLabel('The exact command').inputValue()).toBe('npm test');
    await card.getByLabel('Rule expires after').selectOption({ label: '7 days' });
    await expectAccessible(page, 'the Trust screen editing a proposal');
    await card.getByRole('button', { name: 'Accept as edited' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Accepted: bash(npm test) for build-bot goes ahead without a gate for 7 days.' })
      .waitFor();
    await page.getByRole('cell', { name: 'bash(npm test)' }).waitFor();
    expect(await outcomeOf('npm test')).toBe('allowed');
    expect(await outcomeOf('npm test -- --watch')).toBe('gated');
    await expectAccessible(page, 'the Trust screen with a learned rule');

    await page.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Revoked: bash(npm test) waits for a person again.' })
      .waitFor();
    await page.getByText('No learned rules in force.').waitFor();
    expect(await outcomeOf('npm test')).toBe('gated');
    expect(env.pageErrors).toEqual([]);
  });

  it('lets a developer read proposals but not decide them; the tech lead dismisses one', async () => {
    const env = e2e();
    await earn('make lint');
    const developer = await env.pageAs(env.developer);
    await developer.goto('/trust');
    const card = developer.getByRole('article', { name: /bash\(make lint:\*\) for build-bot/ });
    await card.waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    await expectAccessible(developer, 'the Trust screen for a developer');

    const lead = await env.pageAs(env.techLead);
    await lead.goto('/trust');
    const leadCard = lead.getByRole('article', { name: /bash\(make lint:\*\) for build-bot/ });
    await leadCard.getByRole('button', { name: 'Dismiss' }).click();
    await lead
      .getByRole('status')
      .filter({ hasText: /Dismissed: bash\(make lint:\*\)/ })
      .waitFor();
    expect(await lead.getByRole('article').count()).toBe(0);
    const proposals = await env.api('GET', '/v1/trust/proposals?status=dismissed', {
      token: env.admin.token,
    });
    expect(proposals.proposals.map((p: { description: string }) => p.description)).toContain(
      'bash(make lint:*)',
    );
  });
});
