import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { keyProofText } from 'gatehouse-hitl-core';

/** A key pair registered for a person, with its public key as the raw 32 bytes in base64. */
export interface TestSigningKey {
  raw: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/** The Ed25519 signature (base64) of `text` (UTF-8). */
export function signTestText(privateKey: KeyObject, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
}

/**
 * Makes a key pair and registers it for the person behind `token` as a client must: a fresh
 * challenge, signed with the new key; throws when the server refuses.
 */
export async function registerTestKey(app: FastifyInstance, token: string): Promise<TestSigningKey> {
  const headers = { authorization: `Bearer ${token}` };
  const me = await app.inject({ method: 'GET', url: '/v1/me', headers });
  const userId = (me.json() as { user: { id: string } }).user.id;
  const challenge = (await app.inject({ method: 'GET', url: '/v1/me/keys/challenge', headers })).json()
    .challenge as string;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
  const proof = signTestText(privateKey, keyProofText({ challenge, userId }));
  const answer = await app.inject({
    method: 'POST',
    url: '/v1/me/keys',
    headers,
    payload: { publicKey: raw, challenge, proof },
  });
  if (answer.statusCode !== 201)
    throw new Error(`key registration answered ${answer.statusCode} ${answer.body}`);
  return { raw, publicKey, privateKey };
}
