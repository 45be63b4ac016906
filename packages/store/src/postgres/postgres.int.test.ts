import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import type { Gate } from 'gatehouse-hitl-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { makeGate } from '../contract/fixtures.js';
import { runStoreContract } from '../contract/run-store-contract.js';
import { migrateToLatest } from '../migrate.js';
import { startTestPostgres, type TestPostgres } from '../testing/postgres.js';
import type { Store } from '../types.js';
import { createPostgresStore } from './postgres-store.js';

/** Raw SQL in the test's schema; `set local` so a shared in-process session is left as it was. */
async function execute(target: TestPostgres, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query(`begin; set local search_path to "${target.schema}"; ${statements}; commit`);
  } finally {
    await client.end();
  }
}

runStoreContract('postgres', async () => {
  const target = await startTestPostgres({ timeFromClock: false });
  return { store: target.store, execute: (sql) => execute(target, sql), cleanup: () => target.stop() };
});

async function expireDue(store: Store): Promise<number> {
  let fired = 0;
  for (;;) {
    const won = await store.transaction(async (tx) => {
      const due = await tx.claimDueGates(5);
      let count = 0;
      for (const gate of due) {
        if (await tx.updateGate({ ...gate, status: 'expired' }, gate.version)) count += 1;
      }
      return due.length === 0 ? null : count;
    });
    if (won === null) return fired;
    fired += won;
  }
}

describe('Postgres store', () => {
  const started: TestPostgres[] = [];
  afterAll(async () => {
    await Promise.all(started.map((target) => target.stop()));
  });
  async function start(): Promise<TestPostgres> {
    const target = await startTestPostgres({ timeFromClock: false });
    started.push(target);
    return target;
  }

  it('migrates once when several nodes start together on an empty schema', async () => {
    const target = await start();
    const schema = `gh_test_${randomBytes(6).toString('hex')}`;
    const clock = { now: () => Date.now() };
    const nodes = await Promise.all(
      [1, 2, 3].map(() => createPostgresStore({ connectionString: target.connectionString, schema, clock })),
    );
    expect(nodes.map((node) => node.appliedMigrations.length).sort()).toEqual([0, 0, 28]);
    await Promise.all(nodes.map((node) => node.close()));
    const again = await migrateToLatest({ connectionString: target.connectionString, schema });
    expect(again).toEqual({ dialect: 'postgres', applied: [] });
    await execute(target, `drop schema "${schema}" cascade`);
  });

  it('takes now from the database, not from the clock it was given', async () => {
    const target = await start();
    const store = await target.openStore({ clock: { now: () => 0 } });
    const now = await store.transaction(async (tx) => tx.now);
    expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
    expect(Math.abs((await store.databaseNow()) - Date.now())).toBeLessThan(60_000);
  });

  it('takes now once it holds the write lock, so time never runs backwards in commit order', async () => {
    const target = await start();
    const nodeB = await target.openStore();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = target.store.transaction(async (tx) => {
      entered();
      await held;
      return tx.now;
    });
    await holding;
    const second = nodeB.transaction(async (tx) => tx.now);
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    const [a, b] = await Promise.all([first, second]);
    // The second node waited about 400 ms for the lock; its now is after that wait, not before it.
    expect(b - a).toBeGreaterThanOrEqual(350);
  });

  it('lets a fake clock decide time when asked to (server tests)', async () => {
    const target = await startTestPostgres({ clock: { now: () => 42_000 } });
    started.push(target);
    expect(await target.store.databaseNow()).toBe(42_000);
    expect(await target.store.transaction(async (tx) => tx.now)).toBe(42_000);
  });

  it('expires each due gate exactly once when two nodes sweep together', async () => {
    const target = await start();
    const nodeB = await target.openStore();
    const now = await target.store.databaseNow();
    const gates: Gate[] = Array.from({ length: 20 }, (_, i) => makeGate({ timeoutAt: now - 1_000 - i }));
    await target.store.transaction(async (tx) => {
      for (const gate of gates) await tx.insertGate(gate);
    });
    const [a, b] = await Promise.all([expireDue(target.store), expireDue(nodeB)]);
    expect(a + b).toBe(20);
    expect(await target.store.read((tx) => tx.countGates({ status: 'expired' }))).toBe(20);
  });

  it('lets one decision win across nodes and keeps one audit chain for both', async () => {
    const target = await start();
    const nodeB = await target.openStore();
    const gate = makeGate();
    await target.store.transaction((tx) => tx.insertGate(gate));
    const decide = (store: Store, by: string) =>
      store.transaction(async (tx) => {
        const won = await tx.updateGate({ ...gate, status: 'approved', requestedBy: by }, 1);
        await tx.appendAudit({ kind: 'gate.decide', actor: by, subject: gate.id, data: { won } });
        return won;
      });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => decide(i % 2 ? nodeB : target.store, `user_${i}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await nodeB.verifyAuditChain()).toMatchObject({ ok: true, count: 10 });
  });
});

/** A TCP hop in front of the database that the test can cut, like a network or server failure. */
async function startCuttableProxy(
  target: string,
): Promise<{ connectionString: string; cut(): Promise<void> }> {
  const url = new URL(target);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(url.port || 5432), url.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxied = new URL(target);
  proxied.host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    connectionString: proxied.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('Postgres store without a database', () => {
  it('refuses to start when the database cannot be reached', async () => {
    const clock = { now: () => Date.now() };
    await expect(
      createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/none', clock }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('fails closed with SERVICE_UNAVAILABLE once the database goes away', async () => {
    const target = await startTestPostgres({ timeFromClock: false });
    const proxy = await startCuttableProxy(target.connectionString);
    const clock = { now: () => Date.now() };
    const store = await createPostgresStore({
      connectionString: proxy.connectionString,
      schema: target.schema,
      clock,
    });
    try {
      expect(await store.transaction(async (tx) => tx.listAgents())).toEqual([]);
      await proxy.cut();
      await expect(store.transaction(async (tx) => tx.listAgents())).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
      await expect(store.read((tx) => tx.listAgents())).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
      expect(await store.ping()).toBe(false);
    } finally {
      await store.close();
      await target.stop();
    }
  });
});
