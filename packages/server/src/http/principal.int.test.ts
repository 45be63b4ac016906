import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { PostgresStore } from 'gatehouse-hitl-store';
import { startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { generateToken, hashToken } from '../auth/secrets.js';
import { loadConfig } from '../config.js';
import { createInProcessBus } from '../events/bus.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { PRINCIPAL_CACHE_TTL_MS } from './principal-cache.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const clock = { now: () => Date.now() };

async function status(app: FastifyInstance, token: string): Promise<number> {
  return (await app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) })).statusCode;
}

describe.each(dialects)('credentials on %s', (dialect) => {
  let test: TestApp<typeof clock> | null = null;

  afterEach(async () => {
    await test?.close();
    test = null;
  });

  it('refuses a credential revoked through the store on the very next request, though it was just served', async () => {
    test = await createTestApp({ dialect, clock });
    const current = test;
    expect(await status(current.app, current.tokens.agent)).toBe(200);
    expect(await status(current.app, current.tokens.agent)).toBe(200);
    await current.store.transaction((tx) => tx.revokeTokensOf(current.ids.agentId, 'agent', tx.now));
    expect(await status(current.app, current.tokens.agent)).toBe(401);
    expect(await status(current.app, current.tokens.otherAgent)).toBe(200);
  });
});

describe('credentials across nodes on one Postgres', () => {
  let postgres: TestPostgres | null = null;
  let app: FastifyInstance | null = null;
  let dir: string | null = null;

  afterEach(async () => {
    await app?.close();
    await postgres?.stop();
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
    app = null;
    postgres = null;
    dir = null;
  });

  it('applies a revocation made on another node within 1 s', async () => {
    postgres = await startTestPostgres({ clock });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const config = loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent' });
    app = await buildApp({ store: postgres.store, bus: createInProcessBus(), clock, config });
    await app.ready();
    const token = generateToken('gha');
    await postgres.store.transaction(async (tx) => {
      await tx.insertAgent({
        id: 'agent_far',
        name: 'far',
        profile: null,
        autonomy: null,
        createdAt: tx.now,
      });
      await tx.insertToken({
        tokenHash: hashToken(token),
        kind: 'agent',
        subjectId: 'agent_far',
        createdAt: tx.now,
        expiresAt: null,
        revokedAt: null,
      });
    });
    expect(await status(app, token)).toBe(200);
    const otherNode: PostgresStore = await postgres.openStore({ clock });
    await otherNode.transaction((tx) => tx.revokeTokensOf('agent_far', 'agent', tx.now));
    const revokedAt = performance.now();
    let answer = 200;
    while (answer === 200 && performance.now() - revokedAt < 2_000) {
      answer = await status(app, token);
      if (answer === 200) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const elapsed = performance.now() - revokedAt;
    expect(answer).toBe(401);
    expect(elapsed).toBeLessThan(1_000);
    expect(PRINCIPAL_CACHE_TTL_MS).toBeLessThanOrEqual(500);
  });
});
