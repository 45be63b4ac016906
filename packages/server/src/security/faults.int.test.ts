import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqliteDriver, startTestPostgres } from 'gatehouse-hitl-store/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type RunningServer, startServer } from '../main.js';
import { createHttpClient, type HttpClient, inPool } from '../testing/http-client.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import type { TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const POSTGRES_URL = process.env.GATEHOUSE_TEST_DATABASE_URL;

interface Served {
  server: RunningServer;
  client: HttpClient;
  close(): Promise<void>;
}

/** A real server (startServer, as `gatehouse serve` runs it) logging every request to `logFile`. */
async function serveLoggingTo(dialect: TestDialect, logFile: string): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-faults-'));
  const postgres = dialect === 'postgres' ? await startTestPostgres() : null;
  await postgres?.store.close();
  const database = postgres
    ? { databaseUrl: postgres.connectionString, databaseSchema: postgres.schema }
    : {};
  const config = loadConfig({}, { dataDir, port: 0, logLevel: 'info', logFile, ...database });
  const server = await startServer({ config, print: () => {}, handleSignals: false });
  const client = createHttpClient(server.url);
  return {
    server,
    client,
    async close() {
      client.close();
      await server.close();
      await postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function droppedLogLines(client: HttpClient): Promise<number> {
  const { body } = await client.call('GET', '/metrics');
  const match = /^gatehouse_log_dropped_total (\d+)$/m.exec(String(body));
  return match ? Number(match[1]) : Number.NaN;
}

/** Requests that each log two lines at info, while /healthz must answer every time within `ms`. */
async function logHard(client: HttpClient, requests: number): Promise<number> {
  let slowest = 0;
  await inPool(
    Array.from({ length: requests }, (_, i) => i),
    8,
    async (i) => {
      const result = await client.call('GET', i % 2 === 0 ? '/healthz' : `/v1/nothing/${'x'.repeat(1500)}`, {
        abortAfterMs: 2_000,
      });
      slowest = Math.max(slowest, result.answeredAt - result.sentAt);
    },
  );
  return slowest;
}

describe.each(dialects)('faults in the log destination on %s', (dialect) => {
  let served: Served | null = null;
  let dir: string | null = null;
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  afterEach(async () => {
    process.off('uncaughtException', onCrash);
    await served?.close();
    served = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('keeps answering when every log write fails with ENOSPC, and counts the dropped lines', async () => {
    process.on('uncaughtException', onCrash);
    served = await serveLoggingTo(dialect, '/dev/full');
    const slowest = await logHard(served.client, 400);
    expect(slowest).toBeLessThan(1_000);
    // A failed write drops the lines queued behind it, one retry delay (100 ms) after the one before:
    // a load that ends sooner is counted as the queue catches up.
    const client = served.client;
    await expect.poll(() => droppedLogLines(client), { timeout: 5_000 }).toBeGreaterThan(100);
    expect((await served.client.call('GET', '/healthz')).status).toBe(200);
    expect(crashes).toEqual([]);
  });

  it('never blocks on a log pipe nobody reads, and goes on when the reader comes back', async () => {
    process.on('uncaughtException', onCrash);
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-fifo-'));
    const fifo = join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      served = await serveLoggingTo(dialect, fifo);
      const slowest = await logHard(served.client, 2_000);
      expect(slowest).toBeLessThan(1_000);
      expect(await droppedLogLines(served.client)).toBeGreaterThan(0);
      // Space returns: drain the pipe; the server keeps running and logging.
      const buffer = Buffer.alloc(1 << 16);
      for (let i = 0; i < 200; i++) {
        try {
          readSync(reader, buffer);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      expect(await logHard(served.client, 100)).toBeLessThan(1_000);
      expect((await served.client.call('GET', '/healthz')).status).toBe(200);
      expect(crashes).toEqual([]);
    } finally {
      await served?.close();
      served = null;
      closeSync(reader);
    }
  });
});

/** Makes every write to the app's database fail while reads still work, until `restore()`. */
interface WriteOutage {
  restore(): Promise<void>;
}

function lockSqliteWrites(file: string): WriteOutage {
  const db = new (loadSqliteDriver().driver)(file);
  db.exec('BEGIN IMMEDIATE');
  return {
    async restore() {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

async function adminQuery(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function setReadOnly(url: string, database: string, on: boolean): Promise<void> {
  await adminQuery(url, `alter database "${database}" set default_transaction_read_only = ${on}`);
  await adminQuery(
    url,
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and pid <> pg_backend_pid()`,
  );
}

describe.each(dialects)('readiness while writes fail on %s', (dialect) => {
  let live: ListeningApp<{ now(): number }> | null = null;
  let throwaway: { url: string; name: string; admin: string } | null = null;

  afterEach(async () => {
    await live?.close();
    live = null;
    if (throwaway) {
      await adminQuery(throwaway.admin, `drop database if exists "${throwaway.name}" with (force)`);
      throwaway = null;
    }
  }, 60_000);

  async function startOnThrowawayDatabase(): Promise<ListeningApp<{ now(): number }>> {
    if (dialect === 'sqlite') return startListeningApp({ dialect });
    if (!POSTGRES_URL) throw new Error('set GATEHOUSE_TEST_DATABASE_URL to a Postgres server');
    const name = `gh_readonly_${Date.now().toString(36)}_${process.pid}`;
    await adminQuery(POSTGRES_URL, `create database "${name}"`);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    throwaway = { url: url.toString(), name, admin: POSTGRES_URL };
    process.env.GATEHOUSE_TEST_DATABASE_URL = throwaway.url;
    try {
      return await startListeningApp({ dialect });
    } finally {
      process.env.GATEHOUSE_TEST_DATABASE_URL = POSTGRES_URL;
    }
  }

  function breakWrites(app: ListeningApp<{ now(): number }>): Promise<WriteOutage> {
    if (dialect === 'sqlite') {
      return Promise.resolve(lockSqliteWrites((app.test.store as unknown as { file: string }).file));
    }
    const target = throwaway as NonNullable<typeof throwaway>;
    return setReadOnly(target.admin, target.name, true).then(() => ({
      restore: () => setReadOnly(target.admin, target.name, false),
    }));
  }

  it('answers writes with 503, reports not ready while they fail, and ready again once one succeeds', async () => {
    live = await startOnThrowawayDatabase();
    const { client, test } = live;
    const openGate = () =>
      client.call('POST', '/v1/gates', { token: test.tokens.agent, body: { tool: 'deploy', args: {} } });
    expect((await openGate()).status).toBe(200);
    expect((await client.call('GET', '/readyz')).status).toBe(200);

    const outage = await breakWrites(live);
    const failed = await openGate();
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect((await client.call('GET', '/v1/me', { token: test.tokens.agent })).status).toBe(200);
    const notReady = await client.call('GET', '/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks).toMatchObject({ database: true, writes: false });

    await outage.restore();
    let ready = await client.call('GET', '/readyz');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await client.call('GET', '/readyz');
    }
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: true, writes: true });
    expect((await openGate()).status).toBe(200);
  }, 60_000);
});
