import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, newTxMemo, type TxContext } from './db/schema.js';
import { affectedRows, preparedQuery, runPrepared } from './prepared.js';
import { loadSqliteDriver } from './sqlite/driver.js';

const BetterSqlite3 = loadSqliteDriver().driver;

const agentByName = preparedQuery(
  'test-agent-by-name',
  (db, name: string) => db.selectFrom('agents').select(['id', 'name']).where('name', '=', name),
  (name) => [name],
);

const renameAgent = preparedQuery(
  'test-rename-agent',
  (db, change: { id: string; name: string }) =>
    db.updateTable('agents').set({ name: change.name }).where('id', '=', change.id),
  (change) => [change.name, change.id],
);

// Declares its parameters in the wrong order: the first run must refuse it.
const misordered = preparedQuery(
  'test-misordered',
  (db, change: { id: string; name: string }) =>
    db.updateTable('agents').set({ name: change.name }).where('id', '=', change.id),
  (change) => [change.id, change.name],
);

describe('prepared queries on SQLite', () => {
  let db: Kysely<Database>;
  let prepared: string[] = [];
  const statementTexts = new Map<string, string>();

  function context(): TxContext {
    return { db, now: 0, dialect: 'sqlite', statements: statementTexts, memo: newTxMemo() };
  }

  afterEach(async () => {
    statementTexts.clear();
    prepared = [];
    await db?.destroy();
  });

  async function open() {
    const sqlite = new BetterSqlite3(':memory:');
    sqlite.exec(
      "create table agents (id text primary key, name text not null); insert into agents values ('agent_1', 'ada'), ('agent_2', 'bob')",
    );
    db = new Kysely<Database>({
      dialect: new SqliteDialect({
        database: {
          close: () => sqlite.close(),
          prepare: (text: string) => {
            prepared.push(text);
            return sqlite.prepare(text);
          },
        },
      }),
    });
  }

  it('compiles a query once per store and runs its SQL text with new parameters', async () => {
    await open();
    const first = await runPrepared<{ id: string }, string>(context(), agentByName, 'ada');
    const second = await runPrepared<{ id: string }, string>(context(), agentByName, 'bob');
    expect(first.rows).toEqual([{ id: 'agent_1', name: 'ada' }]);
    expect(second.rows).toEqual([{ id: 'agent_2', name: 'bob' }]);
    expect(statementTexts.get('test-agent-by-name')).toBe(
      'select "id", "name" from "agents" where "name" = ?',
    );
    expect(new Set(prepared).size).toBe(1);
  });

  it('counts the rows a prepared update changed', async () => {
    await open();
    expect(affectedRows(await runPrepared(context(), renameAgent, { id: 'agent_1', name: 'cy' }))).toBe(1);
    expect(affectedRows(await runPrepared(context(), renameAgent, { id: 'agent_9', name: 'cy' }))).toBe(0);
    const { rows } = await runPrepared<{ id: string }, string>(context(), agentByName, 'cy');
    expect(rows).toEqual([{ id: 'agent_1', name: 'cy' }]);
  });

  it('refuses a query whose parameters do not follow the built SQL, before it runs', async () => {
    await open();
    await expect(runPrepared(context(), misordered, { id: 'agent_1', name: 'cy' })).rejects.toThrow(
      /parameters\(\) does not match/,
    );
    expect(statementTexts.has('test-misordered')).toBe(false);
  });

  it('refuses NUL in text parameters on the first run and on every later one', async () => {
    await open();
    for (const name of ['a\u0000b', 'ada', 'c\u0000']) {
      const run = runPrepared(context(), agentByName, name);
      if (name.includes('\u0000')) await expect(run).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      else await expect(run).resolves.toMatchObject({ rows: [{ id: 'agent_1' }] });
    }
  });
});
