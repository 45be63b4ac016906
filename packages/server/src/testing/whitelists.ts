import { type KeyObject, sign } from 'node:crypto';
import { type Clock, signedDecisionText } from 'gatehouse-hitl-core';
import { expect } from 'vitest';
import { decideTestGate } from './gates.js';
import { registerTestKey } from './signing-keys.js';
import { bearer, type TestApp } from './test-app.js';

/** Decides a false_positive_override gate (signature always required) as the holder of `token`. */
export async function decideSignedGate<C extends Clock>(
  test: TestApp<C>,
  token: string,
  gateId: string,
  body: { option: string; reason?: string },
  /** A key registered earlier (registration needs a recent sign-in, which a fake clock run ahead is not). */
  key?: KeyObject,
): Promise<void> {
  const stored = await test.store.read((tx) => tx.getGate(gateId));
  const privateKey = key ?? (await registerTestKey(test.app, token)).privateKey;
  const text = signedDecisionText({
    gateId,
    option: body.option,
    payloadHash: stored?.payloadHash ?? null,
    ...(body.reason === undefined ? {} : { reason: body.reason }),
  });
  const signature = sign(null, Buffer.from(text), privateKey).toString('base64');
  const decided = await decideTestGate(test, token, gateId, { ...body, signature });
  expect(decided.statusCode, decided.body).toBe(200);
}

/** `POST /v1/whitelists` as the holder of `token`. */
export function postWhitelist<C extends Clock>(
  test: TestApp<C>,
  token: string,
  payload: Record<string, unknown>,
) {
  return test.app.inject({ method: 'POST', url: '/v1/whitelists', headers: bearer(token), payload });
}

/** `GET /v1/whitelists` as a viewer. */
export async function listWhitelists<C extends Clock>(test: TestApp<C>): Promise<Record<string, unknown>[]> {
  const response = await test.app.inject({
    method: 'GET',
    url: '/v1/whitelists',
    headers: bearer(test.tokens.viewer),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().whitelists;
}
