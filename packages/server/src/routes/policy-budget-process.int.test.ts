import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../testing/http-client.js';
import { startServerProcess } from '../testing/server-process.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const policy = (condition: string) => `name: compiled
rules:
  - id: slow
    priority: 10
    condition: '${condition}'
    action: deny
    reason: slow on purpose
`;

async function database(dialect: TestDialect) {
  if (dialect === 'sqlite') return { env: {}, stop: async () => {} };
  const pg = await startTestPostgres();
  return {
    env: { GATEHOUSE_DATABASE_URL: pg.connectionString, GATEHOUSE_DATABASE_SCHEMA: pg.schema },
    stop: () => pg.stop(),
  };
}

// The built server (`npx tsc -b`) starts its dry-run worker from the compiled file next to it.
describe.each(dialects)('the built server on %s', (dialect) => {
  it('evaluates dry runs in its compiled worker and stops a slow one at the time limit', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-budget-'));
    const db = await database(dialect);
    const server = await startServerProcess({ dataDir, env: db.env, expectLink: true });
    const api = createHttpClient(server.url);
    try {
      const link = await api.call('POST', '/v1/auth/link', { body: { token: server.loginToken } });
      const token: string = link.body.token;
      const dryRun = (condition: string, args: unknown) =>
        api.call('POST', '/v1/policy/dry-run', {
          token,
          body: { source: policy(condition), request: { tool: 'shell', args } },
        });
      const quick = await dryRun('args.xs.exists(x, x > 1)', { xs: [1, 2] });
      expect(quick.status).toBe(200);
      expect(quick.body).toMatchObject({ outcome: 'denied', ruleId: 'slow' });
      // Two warm connections: one carries the dry run, the other the health checks.
      await Promise.all([api.call('GET', '/healthz'), api.call('GET', '/healthz')]);
      let answered = false;
      const args = { xs: Array.from({ length: 40_000 }, (_, i) => i), s: 'ab'.repeat(100_000) };
      const pending = dryRun('args.xs.exists(a, args.s.contains("ac"))', args).finally(() => {
        answered = true;
      });
      const latencies: number[] = [];
      do {
        const started = performance.now();
        expect((await api.call('GET', '/healthz')).status).toBe(200);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      } while (!answered);
      expect(Math.max(...latencies)).toBeLessThan(100);
      const slow = await pending;
      expect(slow.status).toBe(422);
      expect(slow.body.error).toMatchObject({
        code: 'POLICY_BUDGET_EXCEEDED',
        details: { ruleId: 'slow', limit: 'timeMs', max: 2000 },
      });
    } finally {
      api.close();
      await server.stop();
      await db.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
