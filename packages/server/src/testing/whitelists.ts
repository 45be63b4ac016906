import { type KeyObject, sign } from 'node:crypto';
import { type Clock, decisionWhitelistScope, signedDecisionText } from 'gatehouse-hitl-core';
import { expect } from 'vitest';
import { decideTestGate } from './gates.js';
import { createRunViaApi } from './runs.js';
import { registerTestKey } from './signing-keys.js';
import { bearer, type TestApp } from './test-app.js';

/** A decision's body as a test sends it: the option, a reason, the whitelist scope chosen. */
export interface TestDecision {
  option: string;
  reason?: string;
  whitelist?: { path?: string; agents?: 'this' | 'every'; expiresInDays?: number };
}

/** The text a person signs for `body` on the stored gate, with the whitelist scope where one is signed. */
export async function decisionTextFor<C extends Clock>(
  test: TestApp<C>,
  gateId: string,
  body: TestDecision,
): Promise<string> {
  const stored = await test.store.read((tx) => tx.getGate(gateId));
  if (stored === null) throw new Error(`no gate ${gateId}`);
  return signedDecisionText({
    gateId,
    option: body.option,
    payloadHash: stored.payloadHash,
    reason: body.reason,
    whitelist: decisionWhitelistScope(stored, body.option, body.whitelist),
  });
}

/** Decides a false_positive_override gate (signature always required) as the holder of `token`. */
export async function decideSignedGate<C extends Clock>(
  test: TestApp<C>,
  token: string,
  gateId: string,
  body: TestDecision,
  /** A key registered earlier (registration needs a recent sign-in, which a fake clock run ahead is not). */
  key?: KeyObject,
): Promise<void> {
  const privateKey = key ?? (await registerTestKey(test.app, token)).privateKey;
  const text = await decisionTextFor(test, gateId, body);
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

/** An unsure finding of the analysis in `folder/cart.rb`: its false_positive_override gate and file. */
export async function openUnsureFinding<C extends Clock>(
  test: TestApp<C>,
  folder: string,
): Promise<{ gateId: string; path: string }> {
  const run = await createRunViaApi(test);
  const path = `${folder}/cart.rb`;
  const analyzed = await test.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: bearer(test.tokens.agent),
    payload: {
      runId: run.id,
      files: [
        { path, before: 'def total\n  1\nend\n', after: 'def total\n  raise NotImplementedError\nend\n' },
      ],
    },
  });
  expect(analyzed.statusCode, analyzed.body).toBe(200);
  const [gate] = analyzed.json().gates;
  expect(gate?.type).toBe('false_positive_override');
  return { gateId: gate.id, path };
}
