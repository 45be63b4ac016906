import { expect } from 'vitest';
import type { ServeProcess } from './cli-process.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
type Json = any;

/** GET `path` (POST with `body`) on a running `gatehouse serve` as `token`; expects a 200 and returns its JSON. */
export async function callServe(
  server: ServeProcess,
  token: string,
  path: string,
  body?: unknown,
): Promise<Json> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as Json;
}

/** Signs in with the first-start login link, as a person who opened it would; returns the session token. */
export async function signInByLoginLink(server: ServeProcess): Promise<string> {
  const token = /#token=(\S+)/.exec(server.loginLink ?? '')?.[1];
  const response = await fetch(`${server.url}/v1/auth/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}
