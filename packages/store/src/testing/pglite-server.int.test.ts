import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './postgres.js';

// Runs on the in-process Postgres even where a real server is configured, so CI covers both.
describe('in-process Postgres', () => {
  let target: TestPostgres;
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    target = await startTestPostgres({ url: null, timeFromClock: false });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await target.stop();
  });
  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: target.connectionString });
    await client.connect();
    clients.push(client);
    return client;
  }

  it('serves a migrated store through the pg driver', async () => {
    expect(target.kind).toBe('in-process');
    expect(await target.store.ping()).toBe(true);
    expect(await target.store.transaction(async (tx) => tx.listAgents())).toEqual([]);
  });

  it('never interleaves the statements of concurrent connections', async () => {
    const [a, b, c] = await Promise.all([connect(), connect(), connect()]);
    const rounds = Array.from({ length: 30 }, (_, i) =>
      Promise.all([a, b, c].map((client, n) => client?.query('select $1::int + $2::int as sum', [i, n]))),
    );
    const results = await Promise.all(rounds);
    expect(results.map((round) => round.map((r) => r?.rows[0].sum))).toEqual(
      Array.from({ length: 30 }, (_, i) => [i, i + 1, i + 2]),
    );
  });

  it('keeps a transaction of one connection apart from the others', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    await a?.query('create table if not exists pglite_probe (n int)');
    await a?.query('begin');
    await a?.query('insert into pglite_probe values ($1)', [1]);
    const outside = b?.query('select count(*)::int as n from pglite_probe');
    await new Promise((resolve) => setTimeout(resolve, 30));
    await a?.query('rollback');
    expect((await outside)?.rows[0].n).toBe(0);
    await expect(a?.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect((await a?.query('select 1 as one'))?.rows[0].one).toBe(1);
  });

  it('answers each new connection with its own startup reply while others are busy', async () => {
    const busy = await Promise.all(Array.from({ length: 6 }, () => connect()));
    const queries = busy.map(async (client, n) => {
      const sums: number[] = [];
      for (let i = 0; i < 30; i++) {
        await client.query('begin');
        sums.push((await client.query('select $1::int + $2::int as s', [i, n])).rows[0].s);
        await client.query('commit');
      }
      return sums;
    });
    const joining = Array.from({ length: 30 }, async () => {
      const client = await connect();
      return (await client.query('select 1 as one')).rows[0].one;
    });
    expect(await Promise.all(joining)).toEqual(Array.from({ length: 30 }, () => 1));
    expect(await Promise.all(queries)).toEqual(
      busy.map((_, n) => Array.from({ length: 30 }, (_, i) => i + n)),
    );
  });

  it('rolls back and frees the session when a client leaves inside a transaction', async () => {
    const leaver = new pg.Client({ connectionString: target.connectionString });
    await leaver.connect();
    await leaver.query('begin');
    await leaver.query('create table pglite_gone (n int)');
    await leaver.end();
    const other = await connect();
    const { rows } = await other.query("select to_regclass('pglite_gone') as t");
    expect(rows[0].t).toBeNull();
  });

  it('delivers a NOTIFY only to the connections that LISTEN on its channel, also after an UNLISTEN', async () => {
    const [listener, other, quiet, notifier] = await Promise.all([
      connect(),
      connect(),
      connect(),
      connect(),
    ]);
    const heard: string[] = [];
    listener?.on('notification', (n) => heard.push(`listener ${n.channel} ${n.payload}`));
    other?.on('notification', (n) => heard.push(`other ${n.channel} ${n.payload}`));
    quiet?.on('notification', (n) => heard.push(`quiet ${n.channel} ${n.payload}`));
    notifier?.on('notification', (n) => heard.push(`notifier ${n.channel} ${n.payload}`));
    await listener?.query('LISTEN "Probe Channel"');
    await other?.query('listen probe_other');
    await quiet?.query('listen probe_quiet');
    await quiet?.query('listen "Probe Channel"');
    await quiet?.query('unlisten "Probe Channel"');
    await notifier?.query(`select pg_notify('Probe Channel', '7'), pg_notify('probe_other', '8')`);
    await notifier?.query(`begin; select pg_notify('probe_quiet', '9'); commit`);
    await listener?.query('select 1');
    await other?.query('select 1');
    await quiet?.query('select 1');
    expect(heard.sort()).toEqual(['listener Probe Channel 7', 'other probe_other 8', 'quiet probe_quiet 9']);
  });

  it('drops the connections of one application name, as pg_terminate_backend would', async () => {
    const named = new pg.Client({ connectionString: target.connectionString, application_name: 'probe-a 1' });
    const kept = new pg.Client({ connectionString: target.connectionString, application_name: 'probe-b' });
    await Promise.all([named.connect(), kept.connect()]);
    clients.push(named, kept);
    const ended = new Promise((resolve) => named.once('end', resolve));
    named.on('error', () => undefined);
    expect(await target.terminateConnections('probe-a')).toBe(1);
    await ended;
    expect((await kept.query('select 1 as one')).rows[0].one).toBe(1);
    await expect(named.query('select 1')).rejects.toThrow();
  });
});
