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

  it('prints no second login link when it starts again on the same data dir', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const first = await serve(dataDir);
    expect(await first.stop()).toBe(0);
    const second = await serve(dataDir, false);
    expect(second.loginLink).toBeNull();
    expect(second.output()).not.toContain('login#token=');
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
  });
});
