import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { DEFAULT_POLICY_YAML, keyProofText, signedDecisionText } from 'gatehouse-hitl-core';
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

function signText(privateKey: KeyObject, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
}

describe('signing keys on the Account screen', () => {
  it('lists my keys by name, renames one and revokes one after confirming', async () => {
    const env = e2e();
    const register = async (name?: string) => {
      const keys = generateKeyPairSync('ed25519');
      const { challenge } = await env.api('GET', '/v1/me/keys/challenge', { token: env.developer.token });
      const text = keyProofText({ challenge, userId: env.developer.id });
      const proof = sign(null, Buffer.from(text, 'utf8'), keys.privateKey).toString('base64');
      const publicKey = keys.publicKey
        .export({ format: 'der', type: 'spki' })
        .subarray(12)
        .toString('base64');
      const body = { publicKey, challenge, proof, ...(name === undefined ? {} : { name }) };
      return (await env.api('POST', '/v1/me/keys', { token: env.developer.token, body })).key;
    };
    await register('Work laptop');
    const unnamed = await register();

    const page = await env.pageAs(env.developer);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Signing keys' });
    await section.getByText('Work laptop').waitFor();
    await section.getByText(`Unnamed key ${unnamed.fingerprint.slice(0, 16)}`).waitFor();
    await expectAccessible(page, 'the account screen with signing keys');

    await section
      .getByRole('button', { name: `Rename Unnamed key ${unnamed.fingerprint.slice(0, 16)}` })
      .click();
    const field = section.getByLabel('Key name');
    await field.fill('Home desktop');
    await section.getByRole('button', { name: 'Save name' }).click();
    await section.getByText('Home desktop').waitFor();

    await section.getByRole('button', { name: 'Revoke Work laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “Work laptop”?' });
    await dialog.waitFor();
    await expectAccessible(page, 'the revoke-key confirmation');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await eventually(async () => (await section.getByText('Work laptop').count()) === 0, {
      what: 'the revoked key gone from the list',
    });
    const listed = await env.api('GET', '/v1/me/keys', { token: env.developer.token });
    expect(listed.keys.map((key: { name: string | null }) => key.name)).toEqual(['Home desktop']);
  });

  it('shows when each key last signed a decision, and a key that never did', async () => {
    const env = e2e();
    const person = env.reviewer;
    const put = await env.http.call('PUT', '/v1/policy', {
      token: env.admin.token,
      body: { source: SIGNED_POLICY },
    });
    expect(put.status).toBe(200);
    const register = async (name: string) => {
      const keys = generateKeyPairSync('ed25519');
      const { challenge } = await env.api('GET', '/v1/me/keys/challenge', { token: person.token });
      const proof = signText(keys.privateKey, keyProofText({ challenge, userId: person.id }));
      const publicKey = keys.publicKey
        .export({ format: 'der', type: 'spki' })
        .subarray(12)
        .toString('base64');
      await env.api('POST', '/v1/me/keys', {
        token: person.token,
        body: { publicKey, challenge, proof, name },
      });
      return keys;
    };
    const signer = await register('Release signer');
    await register('Spare key');
    const gate = await env.openGate({ tool: 'wire_money', args: { amount: 40 }, title: 'Pay the courier' });
    const text = signedDecisionText({ gateId: gate.id, option: 'approve', payloadHash: gate.payloadHash });
    const decided = await env.http.call('POST', `/v1/gates/${gate.id}/decide`, {
      token: person.token,
      body: { option: 'approve', signature: signText(signer.privateKey, text) },
    });
    expect(decided.status).toBe(200);

    const page = await env.pageAs(person);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Signing keys' });
    const used = section.getByRole('listitem').filter({ hasText: 'Release signer' });
    await used.getByText(/last signed (just now|\d+s ago)/).waitFor();
    const spare = section.getByRole('listitem').filter({ hasText: 'Spare key' });
    await spare.getByText('never used to sign').waitFor();
    await expectAccessible(page, 'the account screen with keys and their last use');
  });
});
