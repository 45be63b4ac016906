import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, type ServeProcess, startServe, tempDir } from './testing/cli-process.js';

function tokenOf(link: string): string {
  return /#token=(ghl_[A-Za-z0-9_-]+)/.exec(link)?.[1] ?? '';
}

async function post(url: string, path: string, body: unknown, token?: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function postWithSecret(url: string, secret: string) {
  const response = await fetch(`${url}/v1/host/login-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gatehouse-host-secret': secret },
    body: '{}',
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The first admin signs in by the first-start link, then signs out without ever setting a password. */
async function signOutForGood(server: ServeProcess): Promise<void> {
  const session = await post(server.url, '/v1/auth/link', { token: tokenOf(server.loginLink ?? '') });
  expect(session.status).toBe(200);
  const out = await post(server.url, '/v1/auth/logout', {}, session.body.token as string);
  expect(out.body).toEqual({ ok: true, hasPassword: false });
}

describe('gatehouse admin login-link', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('asks the server running on SQLite for a link with its real port, and works again once it stopped', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const first = await startServe(dataDir);
    await signOutForGood(first);
    expect(statSync(join(dataDir, 'server.json')).mode & 0o777).toBe(0o600);

    const running = await runGatehouse(['admin', 'login-link', '--data-dir', dataDir, '--json']);
    expect(running.code, running.stderr).toBe(0);
    const live = JSON.parse(running.stdout) as { name: string; url: string; token: string };
    expect(live.name).toBe('admin');
    expect(live.url).toBe(`${first.url}/login#token=${live.token}`);
    const signedIn = await post(first.url, '/v1/auth/link', { token: tokenOf(live.url) });
    expect(signedIn.status).toBe(200);
    expect(typeof signedIn.body.token).toBe('string');
    await first.stop();
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);

    const issued = await runGatehouse(['admin', 'login-link', '--data-dir', dataDir, '--json']);
    expect(issued.code, issued.stderr).toBe(0);
    const link = JSON.parse(issued.stdout) as { name: string; url: string; token: string };
    expect(link.name).toBe('admin');
    expect(link.url).toContain(`/login#token=${link.token}`);

    // The admin still has no password, so the restart prints a link of its own as well.
    const again = await startServe(dataDir);
    cleanup.push(() => again.stop());
    expect(again.loginLink).toMatch(/\/login#token=ghl_/);
    expect(again.output()).toContain('No admin has a password yet');
    const session = await post(again.url, '/v1/auth/link', { token: link.token });
    expect(session.status).toBe(200);
    expect((session.body.user as { name: string }).name).toBe('admin');
  }, 60_000);

  it('refuses a host login link without the secret from server.json', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const server = await startServe(dataDir);
    cleanup.push(() => server.stop());
    const { secret } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { secret: string };

    const missing = await post(server.url, '/v1/host/login-link', {});
    const wrong = await postWithSecret(server.url, `${secret.slice(0, -1)}x`);
    for (const refused of [missing, wrong]) {
      expect(refused.status).toBe(401);
      expect((refused.body.error as { code: string }).code).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(refused.body)).not.toContain('ghl_');
    }
    const right = await postWithSecret(server.url, secret);
    expect(right.status).toBe(201);
    expect(server.output()).not.toContain(secret);
  }, 60_000);

  it('issues a link while the server runs on Postgres, for a named person too', async () => {
    const target = await startTestPostgres();
    cleanup.push(() => target.stop());
    const schema = `gh_test_${randomBytes(6).toString('hex')}`;
    const env = { GATEHOUSE_DATABASE_URL: target.connectionString, GATEHOUSE_DATABASE_SCHEMA: schema };
    const temp = tempDir();
    cleanup.push(temp.remove);
    // On Postgres the server writes server.json only into a data dir that exists.
    mkdirSync(join(temp.dir, 'data'));
    const server = await startServe(join(temp.dir, 'data'), { env });
    cleanup.push(() => server.stop());
    await signOutForGood(server);

    const live = await runGatehouse(['admin', 'login-link', '--data-dir', join(temp.dir, 'data')], { env });
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain(`${server.url}/login#token=ghl_`);

    const issued = await runGatehouse(['admin', 'login-link'], { env });
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stdout).toContain('Login link for admin');
    const url = /(http\S+\/login#token=\S+)/.exec(issued.stdout)?.[1] ?? '';
    const session = await post(server.url, '/v1/auth/link', { token: tokenOf(url) });
    expect(session.status).toBe(200);

    const unknown = await runGatehouse(['admin', 'login-link', '--name', 'nobody'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no person named nobody');
  }, 60_000);
});
