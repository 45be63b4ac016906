import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, type ServeProcess, startServe, tempDir } from './testing/cli-process.js';

describe('gatehouse serve', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function serve(dataDir: string, expectLink = true): Promise<ServeProcess> {
    const server = await startServe(dataDir, { expectLink });
    cleanup.push(() => server.stop());
    return server;
  }

  it('starts on a free port with a temp data dir, is ready, and stops cleanly on SIGTERM', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await serve(join(temp.dir, 'data'));
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.loginLink).toMatch(new RegExp(`^${server.url}/login#token=ghl_`));

    // The sign-in command the server prints works as printed.
    const hint = /from a terminal: gatehouse (.+)$/m.exec(server.output())?.[1] ?? '';
    const args = [...hint.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
    expect(args[0]).toBe('login');
    const login = await runGatehouse(args, { env: { XDG_CONFIG_HOME: join(temp.dir, 'config') } });
    expect(login.stdout).toContain(`Signed in to ${server.url} as admin (admin)`);

    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);

    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Gatehouse is shutting down');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('mounts the MCP package at /mcp, behind the server’s bearer check', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await serve(join(temp.dir, 'data'));
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });

  it('prints a new login link on a restart only while the admin has no password', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const first = await serve(dataDir);
    expect(await first.stop()).toBe(0);
    const second = await serve(dataDir);
    expect(second.loginLink).toMatch(new RegExp(`^${second.url}/login#token=ghl_`));
    const token = new URL(second.loginLink ?? '').hash.slice('#token='.length);
    const signedIn = await fetch(`${second.url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const session = (await signedIn.json()) as { token: string };
    const password = await fetch(`${second.url}/v1/me/password`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ newPassword: 'a long enough admin password' }),
    });
    expect(password.status).toBe(200);
    expect(await second.stop()).toBe(0);
    const third = await serve(dataDir, false);
    expect(third.loginLink).toBeNull();
    expect(third.output()).not.toContain('login#token=');
    expect((await fetch(`${third.url}/readyz`)).status).toBe(200);
  });
});
