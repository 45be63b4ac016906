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

  /** A run with 400 gates, of which the last is still pending, beside three other runs' gates. */
  async function longRun(): Promise<PlannedStore> {
    const planned = await open[dialect]();
    opened.push(planned);
    await planned.store.transaction(async (tx) => {
      for (let i = 0; i < 400; i++) {
        const status = i === 399 ? 'pending' : i % 2 === 0 ? 'approved' : 'rejected';
        await tx.insertGate(makeGate({ runId: LONG_RUN, status, createdAt: tx.now - 400 + i }));
      }
      for (let i = 0; i < 3; i++) await tx.insertGate(makeGate({ runId: `run_other${i}` }));
    });
    return planned;
  }

  it('are counted from the index of pending gates, not by reading every gate the run had', async () => {
    const planned = await longRun();
    const { store, trace } = planned;
    trace.length = 0;
    const pending = await store.read((tx) => tx.countGates({ runId: LONG_RUN, status: 'pending' }));
    expect(pending).toBe(1);
    const count = trace.find((statement) => /count\(\*\)/i.test(statement.sql));
    if (count === undefined) throw new Error('no count statement was traced');
    // A partial index serves a query only when the query's own text names the index's status.
    expect(count.sql).toContain(`"status" = 'pending'`);
    expect(await planned.plan(count.sql, [LONG_RUN])).toContain('gates_pending_run');
  });

  it("are listed by type from the index of pending gates, first opened first (a run's phase review)", async () => {
    const planned = await longRun();
    const { store, trace } = planned;
    const now = Date.now();
    await store.transaction(async (tx) => {
      // Out of creation order on purpose, and a pending review of another run.
      for (const [id, createdAt] of [
        ['gate_review_b', now + 20],
        ['gate_review_a', now + 10],
        ['gate_review_c', now + 20],
      ] as const) {
        await tx.insertGate(makeGate({ id, runId: LONG_RUN, type: 'phase_review', createdAt }));
      }
      await tx.insertGate(makeGate({ runId: 'run_other0', type: 'phase_review', createdAt: now }));
    });

    trace.length = 0;
    const filter = { runId: LONG_RUN, type: 'phase_review', status: 'pending' } as const;
    const first = await store.read((tx) => tx.listGates({ ...filter, limit: 1 }));
    expect(first.items.map((gate) => gate.id)).toEqual(['gate_review_a']);
    const all = await store.read((tx) => tx.listGates({ ...filter, limit: 2 }));
    expect(all.items.map((gate) => gate.id)).toEqual(['gate_review_a', 'gate_review_b']);
    const rest = await store.read((tx) => tx.listGates({ ...filter, cursor: all.nextCursor ?? '' }));
    expect(rest.items.map((gate) => gate.id)).toEqual(['gate_review_c']);

    const listed = trace.find((statement) => /"type" = /.test(statement.sql));
    if (listed === undefined) throw new Error('no list statement was traced');
    expect(listed.sql).toContain(`"status" = 'pending'`);
    expect(await planned.plan(listed.sql, [LONG_RUN, 'phase_review'])).toContain('gates_pending_run');
  });
});
