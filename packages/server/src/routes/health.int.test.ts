import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createPostgresBus, type PostgresBus } from '../events/postgres-bus.js';
import { createHttpClient, type HttpClient } from '../testing/http-client.js';

describe('readiness of a node on Postgres', () => {
  let postgres: TestPostgres | null = null;
  let bus: PostgresBus | null = null;
  let app: FastifyInstance | null = null;
  let client: HttpClient | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    client?.close();
    await app?.close();
    await bus?.close();
    await postgres?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<{ client: HttpClient; bus: PostgresBus; postgres: TestPostgres }> {
    postgres = await startTestPostgres();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-health-'));
    bus = await createPostgresBus({
      connectionString: postgres.connectionString,
      schema: postgres.schema,
      store: postgres.store,
      applicationName: `gatehouse-listener health ${postgres.schema}`,
      // Slow to come back, so the test sees the node while its listener is down.
      backoff: { minMs: 1500, maxMs: 1500 },
    });
    const config = loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent' });
    app = await buildApp({ store: postgres.store, bus, clock: { now: () => Date.now() }, config });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    client = createHttpClient(url, { maxSockets: 1 });
    return { client, bus, postgres };
  }

  async function readiness(http: HttpClient) {
    const { status, body } = await http.call('GET', '/readyz');
    return { status, body };
  }

  it('is not ready while its event listener is down, and ready again once it reconnects', async () => {
    const node = await start();
    expect(await readiness(node.client)).toEqual({
      status: 200,
      body: { ready: true, checks: { database: true, events: true, writes: true } },
    });
    expect(await node.postgres.terminateConnections(node.bus.applicationName)).toBe(1);
    const deadline = Date.now() + 5000;
    let down = await readiness(node.client);
    while (down.status === 200 && Date.now() < deadline) down = await readiness(node.client);
    expect(down).toEqual({
      status: 503,
      body: { ready: false, checks: { database: true, events: false, writes: true } },
    });
    expect((await node.client.call('GET', '/healthz')).status).toBe(200);
    let back = down;
    while (back.status !== 200 && Date.now() < deadline) back = await readiness(node.client);
    expect(back.status).toBe(200);
  });
});
