import { randomBytes } from 'node:crypto';
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

  it('brings a signed-out first admin back on SQLite, once the server is stopped', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const first = await startServe(dataDir);
    await signOutForGood(first);

    const busy = await runGatehouse(['admin', 'login-link', '--data-dir', dataDir]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('stop `gatehouse serve`');
    await first.stop();

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

  it('issues a link while the server runs on Postgres, for a named person too', async () => {
    const target = await startTestPostgres();
    cleanup.push(() => target.stop());
    const schema = `gh_test_${randomBytes(6).toString('hex')}`;
    const env = { GATEHOUSE_DATABASE_URL: target.connectionString, GATEHOUSE_DATABASE_SCHEMA: schema };
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await startServe(join(temp.dir, 'data'), { env });
    cleanup.push(() => server.stop());
    await signOutForGood(server);

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
