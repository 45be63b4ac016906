import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { makeGate } from '../contract/fixtures.js';
import { loadSqliteDriver } from '../sqlite/driver.js';
import { createSqliteStore } from '../sqlite/sqlite-store.js';
import { startTestPostgres } from '../testing/postgres.js';
import type { ExecutedStatement, Store } from '../types.js';

const clock = { now: () => Date.now() };
const LONG_RUN = 'run_long';

/** A store with every statement traced, and the plan its engine would follow for a statement. */
interface PlannedStore {
  store: Store;
  trace: ExecutedStatement[];
  /** The engine's plan for `sql` with `parameters`, as text. */
  plan(sql: string, parameters: unknown[]): Promise<string>;
  close(): Promise<void>;
}

const open: Record<'sqlite' | 'postgres', () => Promise<PlannedStore>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
    const file = join(dir, 'gatehouse.db');
    const trace: ExecutedStatement[] = [];
    const store = await createSqliteStore({ file, clock, onStatement: (s) => trace.push(s) });
    const raw = new (loadSqliteDriver().driver)(file, { readonly: true });
    return {
      store,
      trace,
      async plan(sql, parameters) {
        const rows = raw.prepare(`explain query plan ${sql}`).all(...parameters) as { detail: string }[];
        return rows.map((row) => row.detail).join('\n');
      },
      async close() {
        raw.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  async postgres() {
    const trace: ExecutedStatement[] = [];
    const target = await startTestPostgres({ onStatement: (s) => trace.push(s) });
    const client = new pg.Client({ connectionString: target.connectionString });
    await client.connect();
    await client.query(`set search_path to "${target.schema}"`);
    return {
      store: target.store,
      trace,
      async plan(sql, parameters) {
        // Planned with the table's real statistics, as a server that has run a while would.
        await client.query('analyze gates');
        const { rows } = await client.query(`explain ${sql}`, parameters);
        return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      },
      async close() {
        await client.end();
        await target.stop();
      },
    };
  },
};

describe.each(Object.keys(open) as (keyof typeof open)[])('pending gates of a run on %s', (dialect) => {
  const opened: PlannedStore[] = [];
  afterEach(async () => {
    for (const each of opened.splice(0)) await each.close();
  });

  it('are counted from the index of pending gates, not by reading every gate the run had', async () => {
    const planned = await open[dialect]();
    opened.push(planned);
    const { store, trace } = planned;
    await store.transaction(async (tx) => {
      for (let i = 0; i < 400; i++) {
        const status = i === 399 ? 'pending' : i % 2 === 0 ? 'approved' : 'rejected';
        await tx.insertGate(makeGate({ runId: LONG_RUN, status, createdAt: tx.now - 400 + i }));
      }
      for (let i = 0; i < 3; i++) await tx.insertGate(makeGate({ runId: `run_other${i}` }));
    });

    trace.length = 0;
    const pending = await store.read((tx) => tx.countGates({ runId: LONG_RUN, status: 'pending' }));
    expect(pending).toBe(1);
    const count = trace.find((statement) => /count\(\*\)/i.test(statement.sql));
    if (count === undefined) throw new Error('no count statement was traced');
    // A partial index serves a query only when the query's own text names the index's status.
    expect(count.sql).toContain(`"status" = 'pending'`);
    expect(await planned.plan(count.sql, [LONG_RUN])).toContain('gates_pending_run');
  });
});
