import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startServer } from './main.js';
import { SESSION_TTL_MS } from './services/people/sessions.js';

const FIVE_MINUTES = 5 * 60_000;

describe('GATEHOUSE_TEST_CLOCK_SKEW_MS (tests only)', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('is 0 unless set, and takes whole milliseconds within a day either way', () => {
    expect(loadConfig({}).testClockSkewMs).toBe(0);
    expect(loadConfig({ GATEHOUSE_TEST_CLOCK_SKEW_MS: '-300000' }).testClockSkewMs).toBe(-FIVE_MINUTES);
    expect(() => loadConfig({ GATEHOUSE_TEST_CLOCK_SKEW_MS: '1.5' })).toThrow(/GATEHOUSE_TEST_CLOCK_SKEW_MS/);
    expect(() => loadConfig({ GATEHOUSE_TEST_CLOCK_SKEW_MS: '86400001' })).toThrow(
      /GATEHOUSE_TEST_CLOCK_SKEW_MS/,
    );
  });

  it("shifts the node's clock: on SQLite, where that clock is the database's, a session starts 5 min ahead", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-skew-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { GATEHOUSE_TEST_CLOCK_SKEW_MS: String(FIVE_MINUTES) };
    const config = loadConfig(env, { dataDir, port: 0, logLevel: 'silent' });
    const server = await startServer({ config, print: () => undefined, handleSignals: false });
    cleanup.push(() => server.close());

    const before = Date.now();
    const response = await fetch(`${server.url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: server.loginToken }),
    });
    const after = Date.now();
    expect(response.status).toBe(200);
    const { expiresAt } = (await response.json()) as { expiresAt: number };
    expect(expiresAt).toBeGreaterThanOrEqual(before + FIVE_MINUTES + SESSION_TTL_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + FIVE_MINUTES + SESSION_TTL_MS);
  });
});
