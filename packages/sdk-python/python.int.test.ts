import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RestartableServer, runPython, startRestartableServer } from './testing/python-harness.js';

const tests = fileURLToPath(new URL('./tests', import.meta.url));
let server: RestartableServer;

beforeAll(async () => {
  server = await startRestartableServer();
});

afterAll(async () => {
  await server?.close();
});

describe('the Python SDK', () => {
  it('passes its pytest suite against a real server', { timeout: 300_000 }, async () => {
    // A test stuck past 90 s prints every thread's stack, so a hang shows where it waits.
    const args = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-o', 'faulthandler_timeout=90', tests];
    const run = await runPython([...args, ...(process.env.GATEHOUSE_PYTEST_ARGS?.split(' ') ?? [])], {
      env: server.env(),
      cwd: tests,
    });
    // pytest's own report is the failure message: which test, which assertion, which answer.
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/\d+ passed/);
    expect(run.stdout).not.toMatch(/skipped|xfail/);
    // The restart tests asked this process to restart the server, so waiting through one was tested.
    expect(server.restarts).toBeGreaterThan(0);
  });
});
