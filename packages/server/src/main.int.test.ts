import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { type RunningServer, startServer } from './main.js';
import { createTestApp } from './testing/test-app.js';

describe('startServer', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(dataDir: string): Promise<{ server: RunningServer; lines: string[] }> {
    const lines: string[] = [];
    const config = loadConfig({}, { dataDir, port: 0, logLevel: 'silent' });
    const server = await startServer({ config, print: (line) => lines.push(line), handleSignals: false });
    cleanup.push(() => server.close());
    return { server, lines };
  }

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-main-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it('creates the data dir privately, prints the URLs and a first-start login link that signs the admin in', async () => {
    const dataDir = join(tempDir(), 'nested', '.gatehouse');
    const { server, lines } = await start(dataDir);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[0]).toBe(`Gatehouse is listening on ${server.url}`);
    expect(lines).toContain(`API docs: ${server.url}/docs`);
    const link = lines.find((line) => line.startsWith('Open '));
    expect(link).toBe(`Open ${server.url}/login#token=${server.loginToken} to sign in (valid 15 minutes)`);
    expect(lines.some((line) => line.includes('gatehouse login'))).toBe(true);

    const response = await fetch(`${server.url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: server.loginToken }),
    });
    expect(response.status).toBe(200);
    const session = (await response.json()) as { token: string; user: { name: string; role: string } };
    expect(session.user).toEqual(expect.objectContaining({ name: 'admin', role: 'admin' }));
    const users = await fetch(`${server.url}/v1/users`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(users.status).toBe(200);
  });

  async function signIn(url: string, loginToken: string | null): Promise<string> {
    const link = await fetch(`${url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: loginToken }),
    });
    expect(link.status).toBe(200);
    return ((await link.json()) as { token: string }).token;
  }

  it('creates no second admin on a restart', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await first.server.close();
    const second = await start(dataDir);
    const token = await signIn(second.server.url, first.server.loginToken);
    const users = (await (
      await fetch(`${second.server.url}/v1/users`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      users: unknown[];
    };
    expect(users.users).toHaveLength(1);
  });

  it('prints a new login link on a restart while no admin has a password, and none once one has', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await first.server.close();
    const second = await start(dataDir);
    expect(second.server.loginToken).not.toBeNull();
    expect(second.server.loginToken).not.toBe(first.server.loginToken);
    const link = second.lines.find((line) => line.startsWith('Open '));
    expect(link).toBe(
      `Open ${second.server.url}/login#token=${second.server.loginToken} to sign in (valid 15 minutes)`,
    );
    const token = await signIn(second.server.url, second.server.loginToken);
    const password = await fetch(`${second.server.url}/v1/me/password`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ newPassword: 'a long enough admin password' }),
    });
    expect(password.status).toBe(200);
    await second.server.close();
    const third = await start(dataDir);
    expect(third.server.loginToken).toBeNull();
    expect(third.lines.some((line) => line.startsWith('Open '))).toBe(false);
  });

  it('runs on Postgres when given a database URL, bootstrapping once', async () => {
    const postgres = await startTestPostgres();
    cleanup.push(() => postgres.stop());
    const config = loadConfig(
      { GATEHOUSE_DATABASE_URL: postgres.connectionString, GATEHOUSE_DATABASE_SCHEMA: postgres.schema },
      { dataDir: tempDir(), port: 0, logLevel: 'silent' },
    );
    const first = await startServer({ config, print: () => {}, handleSignals: false });
    cleanup.push(() => first.close());
    expect(first.loginToken).toMatch(/^ghl_/);
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    await first.close();
    const second = await startServer({ config, print: () => {}, handleSignals: false });
    cleanup.push(() => second.close());
    // The admin still has no password, so the restart prints a new link for the same admin.
    expect(second.loginToken).toMatch(/^ghl_/);
    expect(await postgres.store.read((tx) => tx.listUsers())).toHaveLength(1);
  });

  it('stops accepting connections on close, and close can be called twice', async () => {
    const { server } = await start(tempDir());
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.close();
    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('listens for SIGINT and SIGTERM and lets go of them on close', async () => {
    const before = process.listenerCount('SIGTERM');
    const config = loadConfig({}, { dataDir: tempDir(), port: 0, logLevel: 'silent' });
    const server = await startServer({ config, print: () => {} });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    await server.close();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});

describe.each(['sqlite', 'postgres'] as const)('without its database on %s', (dialect) => {
  it('is not ready, and refuses authenticated requests with 503 rather than deciding from a cache', async () => {
    const test = await createTestApp({ dialect });
    expect((await test.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await test.store.close();
    const response = await test.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      ready: false,
      checks: { database: false, events: true, writes: false },
    });
    const me = await test.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: { authorization: `Bearer ${test.tokens.admin}` },
    });
    expect(me.statusCode).toBe(503);
    expect(me.json().error.code).toBe('SERVICE_UNAVAILABLE');
    await test.close();
  });
});
