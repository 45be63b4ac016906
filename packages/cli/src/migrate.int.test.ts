import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, startServe, tempDir } from './testing/cli-process.js';

async function query<T>(connectionString: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('gatehouse migrate', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function postgres(): Promise<TestPostgres> {
    const target = await startTestPostgres();
    cleanup.push(() => target.stop());
    return target;
  }

  it('migrates a SQLite data dir once, then finds it up to date', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const first = await runGatehouse(['migrate', '--data-dir', dataDir, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout);
    expect(applied).toMatchObject({ dialect: 'sqlite', database: join(dataDir, 'gatehouse.db') });
    expect(applied.applied.length).toBeGreaterThan(0);

    const again = await runGatehouse(['migrate'], { env: { GATEHOUSE_DATA_DIR: dataDir } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('is up to date; nothing to apply');
  });

  it('applies each migration once when three run at once on one Postgres schema', async () => {
    const target = await postgres();
    const schema = `gh_test_${randomBytes(6).toString('hex')}`;
    cleanup.push(() => query(target.connectionString, `drop schema if exists "${schema}" cascade`));
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        runGatehouse(['migrate', '--database', target.connectionString, '--schema', schema, '--json'], {
          timeoutMs: 30_000,
        }),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const results = runs.map((run) => JSON.parse(run.stdout) as { dialect: string; applied: string[] });
    const applying = results.filter((result) => result.applied.length > 0);
    expect(applying).toHaveLength(1);
    expect(results.every((result) => result.dialect === 'postgres')).toBe(true);

    // The database holds each migration exactly once, and it is the whole list.
    const rows = await query<{ name: string }>(
      target.connectionString,
      `select name from "${schema}".gatehouse_migration order by name`,
    );
    expect(rows.map((row) => row.name)).toEqual(applying[0]?.applied);

    // A server started on it afterwards has nothing left to apply and serves.
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await startServe(join(temp.dir, 'data'), {
      env: { GATEHOUSE_DATABASE_URL: target.connectionString, GATEHOUSE_DATABASE_SCHEMA: schema },
    });
    cleanup.push(() => server.stop());
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 60_000);

  it('fails with exit code 1 and the reason when Postgres cannot be reached', async () => {
    const result = await runGatehouse([
      'migrate',
      '--database',
      'postgres://gatehouse@127.0.0.1:1/gatehouse',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Postgres unavailable');
    expect(result.stderr).toContain('ECONNREFUSED');
  });

  it('refuses a SQLite data dir that a running server holds', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const dataDir = join(temp.dir, 'data');
    const server = await startServe(dataDir);
    cleanup.push(() => server.stop());
    const result = await runGatehouse(['migrate', '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/in use|locked/i);
  });

  it.each([
    [['--database', 'mysql://x@y/z'], '--database takes a Postgres URL'],
    [['--schema', 'Bad-Name', '--database', 'postgres://x@127.0.0.1/z'], '--schema takes a lowercase name'],
    [['--schema', 'tenant_a'], '--schema applies to Postgres only'],
  ])('rejects %j with exit code 2', async (args, message) => {
    const result = await runGatehouse(['migrate', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
