import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
import { placeholderCart } from 'gatehouse-hitl-server/testing';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { PHONE } from './browser.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

let runId = '';
let pattern = '';

async function analyze(note: string) {
  const env = e2e();
  const answer = await env.http.call('POST', '/v1/analyze', {
    token: env.agent.token,
    body: { runId, files: placeholderCart(note) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Registers a signing key for the person behind `token`, as a client must (a challenge, signed). */
async function registerKey(token: string): Promise<KeyObject> {
  const { http } = e2e();
  const me = await http.call('GET', '/v1/me', { token });
  const { challenge } = (await http.call('GET', '/v1/me/keys/challenge', { token })).body;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
  const proof = sign(null, Buffer.from(keyProofText({ challenge, userId: me.body.user.id })), privateKey);
  const added = await http.call('POST', '/v1/me/keys', {
    token,
    body: { publicKey: raw, challenge, proof: proof.toString('base64') },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return privateKey;
}

async function decideSigned(token: string, key: KeyObject, gateId: string, option: string) {
  const { http } = e2e();
  const view = await http.call('GET', `/v1/gates/${gateId}`, { token });
  const text = signedDecisionText({ gateId, option, payloadHash: view.body.gate.payloadHash ?? null });
  const signature = sign(null, Buffer.from(text), key).toString('base64');
  const decided = await http.call('POST', `/v1/gates/${gateId}/decide`, {
    token,
    body: { option, signature },
  });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
}

beforeAll(async () => {
  const run = await e2e().agent.sdk.createRun({ title: 'Cart totals' });
  runId = run.id;
  const first = await analyze('first try');
  pattern = first.findings[0].pattern;
  expect(first.verdict.laziness).toHaveLength(1);
});

describe('change analysis in the web app', () => {
  let runPage: Page;

  it('shows the run’s findings and the recovery at attempt 1 of 3', async () => {
    runPage = await e2e().pageAs(e2e().developer);
    await runPage.goto(`/runs/${runId}`);
    const section = runPage.getByRole('region', { name: 'Change analysis', exact: true });
    await section.getByText(pattern).first().waitFor();
    await section.getByText('Recovery attempt 1 of 3 · stage RETRY').waitFor();
    await section
      .getByRole('cell', { name: /^src\/cart\.ts:\d+$/ })
      .first()
      .waitFor();
    await expectAccessible(runPage, 'the run screen with change analysis');
  });

  it('follows further attempts live and shows the escalation with its reason and history', async () => {
    const section = runPage.getByRole('region', { name: 'Change analysis', exact: true });
    await analyze('second try');
    await section.getByText('Recovery attempt 2 of 3 · stage RETRY').waitFor();
    await analyze('third try');
    await section.getByText('Recovery attempt 3 of 3 · stage ESCALATE').waitFor();
    await section.getByText(/Escalated because the agent used all its attempts/).waitFor();
    await section.getByRole('link', { name: 'Open the escalation gate' }).waitFor();
    await section.getByText('History of attempts (3)').click();
    await section.getByText(/^Attempt 3, /).waitFor();
    await expectAccessible(runPage, 'the run screen with an escalated recovery');
  });

  it('adds a whitelist entry, naming the field of a bad one, renews it and revokes it', async () => {
    const page = await e2e().pageAs(e2e().techLead);
    await page.goto('/whitelists');
    await page.getByRole('heading', { name: 'Whitelists', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Whitelists' }).waitFor();
    await page.getByRole('cell', { name: pattern }).first().waitFor();
    await expectAccessible(page, 'the whitelists screen');

    await page.getByLabel('Pattern', { exact: true }).fill(pattern);
    await page.getByLabel('Path', { exact: true }).fill('src/legacy/**');
    await page.getByLabel('Justification', { exact: true }).fill('too short');
    await page.getByRole('button', { name: 'Add to the whitelist' }).click();
    await page.getByText('justification must say why in at least 10 characters').first().waitFor();
    await expect(
      page.getByLabel('Justification', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');

    await page.getByLabel('Path', { exact: true }).fill('');
    await page
      .getByLabel('Justification', { exact: true })
      .fill('the legacy adapters keep placeholders on purpose');
    await page.getByRole('button', { name: 'Add to the whitelist' }).click();
    await page
      .getByText(/path is required for scope file/)
      .first()
      .waitFor();

    await page.getByLabel('Path', { exact: true }).fill('src/legacy/**');
    await page.getByRole('button', { name: 'Add to the whitelist' }).click();
    await page.getByText(`Whitelisted ${pattern} until`, { exact: false }).waitFor();
    const entries = page.getByRole('region', { name: 'Entries', exact: true });
    await entries.getByText('the legacy adapters keep placeholders on purpose').waitFor();
    await entries.getByText('src/legacy/**').waitFor();
    await entries.getByText('theo-lead').waitFor();
    const listed = await e2e().http.call('GET', '/v1/whitelists', { token: e2e().techLead.token });
    expect(listed.body.whitelists).toEqual([
      expect.objectContaining({ pattern, scope: 'file', path: 'src/legacy/**', status: 'active' }),
    ]);

    const renewDialog = page.getByRole('dialog', { name: 'Renew this whitelist entry?' });
    await entries.getByRole('button', { name: `Renew ${pattern} entry` }).click();
    await renewDialog.getByLabel('New justification').fill('short');
    await renewDialog.getByRole('button', { name: 'Renew for 90 days' }).click();
    await renewDialog
      .getByText(/justification/)
      .last()
      .waitFor();
    expect(await renewDialog.getByRole('alert').textContent()).toMatch(/justification/);
    await expectAccessible(page, 'the renew dialog with an error');
    await renewDialog.getByLabel('New justification').fill('still needed while the adapters are rewritten');
    await renewDialog.getByRole('button', { name: 'Renew for 90 days' }).click();
    await page.getByText(`Renewed the ${pattern} entry until`, { exact: false }).waitFor();
    await entries.getByText('still needed while the adapters are rewritten').waitFor();
    const renewed = await e2e().http.call('GET', '/v1/whitelists', { token: e2e().techLead.token });
    expect(renewed.body.whitelists).toEqual([
      expect.objectContaining({ pattern, justification: 'still needed while the adapters are rewritten' }),
    ]);
    expect(renewed.body.whitelists[0].expiresAt).toBeGreaterThanOrEqual(listed.body.whitelists[0].expiresAt);

    await entries.getByRole('button', { name: `Revoke ${pattern} entry` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`Revoked the ${pattern} entry`).waitFor();
    await entries.getByText('No whitelist entries.').waitFor();
    const after = await e2e().http.call('GET', '/v1/whitelists', { token: e2e().techLead.token });
    expect(after.body.whitelists).toEqual([]);
  });

  it('lets a viewer read whitelists but not change them', async () => {
    const page = await e2e().pageAs(e2e().viewer);
    await page.goto('/whitelists');
    await page.getByText('Tech leads and admins add, renew and revoke entries.').waitFor();
    expect(await page.getByRole('button', { name: 'Add to the whitelist' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Renew|Revoke) / }).count()).toBe(0);
  });

  it('raises the false-positive banner live when a pattern passes 10 %, and on load', async () => {
    const env = e2e();
    const lead = await env.pageAs(env.techLead);
    await lead.goto('/inbox');
    await lead.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    const banner = lead.getByRole('region', { name: 'False-positive alerts' });
    expect(await banner.count()).toBe(0);

    const report = await env.http.call('POST', '/v1/analyze/findings/report', {
      token: env.developer.token,
      body: {
        runId,
        finding: { pattern, file: 'src/cart.ts', name: 'total' },
        reason: 'the placeholder is the agreed stub',
      },
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    const key = await registerKey(env.developer.token);
    await decideSigned(env.developer.token, key, report.body.gate.id, 'legitimate');

    await banner
      .getByText(new RegExp(`${pattern.replaceAll('.', '\\.')} has a false-positive rate of`))
      .waitFor();
    await banner.getByRole('link', { name: 'Review its whitelists and detections' }).click();
    await lead.getByRole('heading', { name: 'Whitelists', level: 1 }).waitFor();
    await lead.reload();
    await banner.getByText(pattern, { exact: true }).waitFor();
    await expectAccessible(lead, 'the whitelists screen with a false-positive alert');

    const dev = await env.pageAs(env.developer);
    await dev.goto('/inbox');
    await dev.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    expect(await dev.getByRole('region', { name: 'False-positive alerts' }).count()).toBe(0);
  });

  it('charts the analysis metrics', async () => {
    const page = await e2e().pageAs(e2e().techLead);
    await page.goto('/metrics');
    const section = page.getByRole('region', { name: 'Change analysis and recovery' });
    await section.getByRole('img', { name: /Change analysis rates.*Escalation rate: 100%/ }).waitFor();
    await section.getByRole('img', { name: /Average attempts before escalation: 3/ }).waitFor();
    await expectAccessible(page, 'the metrics screen with analysis metrics');
  });

  it('fits a phone: the run’s recovery and the whitelists screen', async () => {
    const env = e2e();
    const phone = await env.pageAs(env.techLead, { viewport: PHONE, mobile: true });
    await phone.goto(`/runs/${runId}`);
    await phone.getByText('Recovery attempt 3 of 3 · stage ESCALATE').waitFor();
    await phone.goto('/whitelists');
    await phone.getByRole('heading', { name: 'Whitelists', level: 1 }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(phone, 'the whitelists screen on a phone');
    expect(env.pageErrors).toEqual([]);
  });
});
