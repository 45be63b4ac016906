import { generateKeyPairSync, sign } from 'node:crypto';
import { keyProofText } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';

const e2e = withE2e();

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
});
