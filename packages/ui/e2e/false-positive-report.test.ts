import { generateKeyPairSync, sign } from 'node:crypto';
import { decisionWhitelistScope, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { placeholderCart } from 'gatehouse-hitl-server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

let runId = '';
let reviewGateId = '';
let finding = { pattern: '', file: '', line: 0 };

beforeAll(async () => {
  const env = e2e();
  const run = await env.agent.sdk.createRun({ title: 'Cart totals' });
  runId = run.id;
  const answer = await env.http.call('POST', '/v1/analyze', {
    token: env.agent.token,
    body: { runId, files: placeholderCart('a stub on purpose') },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  finding = answer.body.findings[0];
});

describe('reporting a false positive from the web app', () => {
  it('reports a finding of the run, naming a missing reason, and links the review gate it opened', async () => {
    const env = e2e();
    const page = await env.pageAs(env.developer);
    await page.goto(`/runs/${runId}`);
    const section = page.getByRole('region', { name: 'Change analysis', exact: true });
    const place = `${finding.file}:${finding.line}`;
    await section
      .getByRole('button', { name: `Report false positive: ${finding.pattern} in ${place}` })
      .click();
    const form = section.getByRole('region', {
      name: `Report ${finding.pattern} in ${place} as a false positive`,
    });
    await form.getByRole('button', { name: 'Send the report' }).click();
    await form.getByText('reason: say why the finding is wrong').first().waitFor();
    await expect(form.getByLabel('Why is this finding wrong?').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    await expectAccessible(page, 'the false-positive report form with an error');

    await form.getByLabel('Why is this finding wrong?').fill('the cart total is a stub until pricing lands');
    await form.getByRole('button', { name: 'Send the report' }).click();
    await form.getByText(`Reported ${finding.pattern} in ${place} as a false positive.`).waitFor();

    const gates = await env.http.call('GET', `/v1/gates?runId=${runId}&type=false_positive_override`, {
      token: env.developer.token,
    });
    expect(gates.status, JSON.stringify(gates.body)).toBe(200);
    const [gate, ...others] = gates.body.items;
    expect(others).toEqual([]);
    reviewGateId = gate.id;
    expect(gate).toMatchObject({ status: 'pending', runId });
    expect(gate.context).toMatchObject({
      pattern: finding.pattern,
      files: [finding.file],
      falsePositiveReported: true,
      report: 'the cart total is a stub until pricing lands',
    });

    await form.getByRole('link', { name: 'Open the false-positive review' }).click();
    await page.waitForURL(`**/gates/${gate.id}`);
    await page.getByText(`Possible false positive: ${finding.pattern} in ${finding.file}`).first().waitFor();
    expect(env.pageErrors).toEqual([]);
  });

  it('offers no report to a viewer', async () => {
    const env = e2e();
    const page = await env.pageAs(env.viewer);
    await page.goto(`/runs/${runId}`);
    const section = page.getByRole('region', { name: 'Change analysis', exact: true });
    await section.getByText(finding.pattern).first().waitFor();
    expect(await section.getByRole('button', { name: /^Report false positive/ }).count()).toBe(0);
  });

  it('shows the entry a tech lead’s Whitelist made: the finding’s own file, this agent only', async () => {
    const env = e2e();
    const token = env.techLead.token;
    const me = await env.http.call('GET', '/v1/me', { token });
    const { challenge } = (await env.http.call('GET', '/v1/me/keys/challenge', { token })).body;
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    const proof = sign(null, Buffer.from(keyProofText({ challenge, userId: me.body.user.id })), privateKey);
    const added = await env.http.call('POST', '/v1/me/keys', {
      token,
      body: { publicKey: raw, challenge, proof: proof.toString('base64') },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const reason = 'the cart stub stays until pricing lands';
    const { body: view } = await env.http.call('GET', `/v1/gates/${reviewGateId}`, { token });
    // No scope chosen: the narrowest one, which the signature covers.
    const whitelist = decisionWhitelistScope(view.gate, 'whitelist', undefined);
    const text = signedDecisionText({
      gateId: reviewGateId,
      option: 'whitelist',
      payloadHash: null,
      reason,
      whitelist,
    });
    const decided = await env.http.call('POST', `/v1/gates/${reviewGateId}/decide`, {
      token,
      body: {
        option: 'whitelist',
        reason,
        signature: sign(null, Buffer.from(text), privateKey).toString('base64'),
      },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    const page = await env.pageAs(env.techLead);
    await page.goto('/whitelists');
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    const row = entries.getByRole('row').filter({ hasText: reason });
    await row.getByRole('cell', { name: `File ${finding.file}` }).waitFor();
    await row.getByRole('cell', { name: 'build-bot' }).waitFor();
    await expectAccessible(page, 'the whitelists screen with an agent’s entry');
  });
});
