import { DEFAULT_POLICY_YAML } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

const POLICY = `${DEFAULT_POLICY_YAML}
  - id: signed-payments
    priority: 950
    match: { tools: [wire_money] }
    action: { gate: { signature: true } }
    reason: Money moves need a signed decision.
  - id: two-people
    priority: 940
    match: { tools: [rotate_keys] }
    action: { gate: { requiredApprovals: 2 } }
    reason: Key rotation needs two people.
`;

async function usePolicy(): Promise<void> {
  const env = e2e();
  const put = await env.http.call('PUT', '/v1/policy', { token: env.admin.token, body: { source: POLICY } });
  expect(put.status).toBe(200);
}

describe('separation of duties on the gate page', () => {
  it('tells the owner of the agent that asked, before any signature, that someone else must approve', async () => {
    const env = e2e();
    await usePolicy();
    // The e2e agent was created by the admin, so the admin owns it.
    const gate = await env.openGate({ tool: 'wire_money', args: { amount: 90 }, title: 'Pay the supplier' });
    expect(gate.signatureRequired).toBe(true);

    const page = await env.pageAs(env.admin);
    await page.goto(`/gates/${gate.id}`);
    const decision = page.getByRole('region', { name: 'Decision' });
    await decision.getByText('You own the agent that asked', { exact: false }).first().waitFor();
    const approve = decision.getByRole('button', { name: /^Approve\b/ }).first();
    expect(await approve.isDisabled()).toBe(true);
    expect(await approve.getAttribute('aria-describedby')).toBeTruthy();
    expect(await decision.getByRole('button', { name: 'Edit & approve' }).isDisabled()).toBe(true);
    // Rejecting one's own agent stays allowed.
    expect(await decision.getByRole('button', { name: /^Reject\b/ }).isDisabled()).toBe(false);
    await expectAccessible(page, 'a gate its agent’s owner may not approve');

    const other = await env.pageAs(env.developer);
    await other.goto(`/gates/${gate.id}`);
    const theirs = other.getByRole('region', { name: 'Decision' });
    await theirs.getByRole('heading', { name: 'Options' }).waitFor();
    expect(await theirs.getByText('You own the agent that asked', { exact: false }).count()).toBe(0);
    expect(
      await theirs
        .getByRole('button', { name: /^Approve\b/ })
        .first()
        .isDisabled(),
    ).toBe(false);
  }, 90_000);

  it('tells a person who already approved an N-of-M gate that another person has to approve', async () => {
    const env = e2e();
    await usePolicy();
    const gate = await env.openGate({ tool: 'rotate_keys', args: { scope: 'prod' }, title: 'Rotate keys' });
    expect(gate.requiredApprovals).toBe(2);
    await env.api('POST', `/v1/gates/${gate.id}/decide`, {
      token: env.developer.token,
      body: { option: 'approve' },
    });

    const page = await env.pageAs(env.developer);
    await page.goto(`/gates/${gate.id}`);
    const decision = page.getByRole('region', { name: 'Decision' });
    await decision.getByText('You already approved', { exact: false }).first().waitFor();
    expect(
      await decision
        .getByRole('button', { name: /^Approve\b/ })
        .first()
        .isDisabled(),
    ).toBe(true);
  }, 90_000);
});
