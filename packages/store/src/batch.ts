import { type Kysely, sql } from 'kysely';
import type { Database, Dialect, TxContext } from './db/schema.js';
import { translateUnitError, unavailable } from './db-errors.js';
import type { QueuedUnit } from './group-commit.js';
import { runAsUnit } from './group-commit.js';

/** How one dialect opens a write transaction. */
export interface BatchDialect {
  readonly dialect: Dialect;
  /** Starts the transaction on `db` and returns where each unit's `now` comes from. */
  begin(db: Kysely<Database>): Promise<() => number>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function rollbackQuietly(db: Kysely<Database>): Promise<void> {
  await sql`rollback`.execute(db).catch(() => undefined);
}

async function attempt(unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  try {
    return { ok: true, value: await runAsUnit(() => unit.work(ctx)) };
  } catch (error) {
    return { ok: false, error: translateUnitError(error) };
  }
}

/** Each unit inside its own savepoint, so a throw undoes only that unit. */
async function runInSavepoint(db: Kysely<Database>, unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  await sql`savepoint gh_unit`.execute(db);
  const outcome = await attempt(unit, ctx);
  if (!outcome.ok) await sql`rollback to savepoint gh_unit`.execute(db);
  await sql`release savepoint gh_unit`.execute(db);
  return outcome;
}

function settle(units: QueuedUnit[], outcomes: Outcome[]): void {
  units.forEach((unit, i) => {
    const outcome = outcomes[i];
    if (outcome?.ok) unit.resolve(outcome.value);
    else unit.reject(outcome ? outcome.error : new Error('unit did not run'));
  });
}

/**
 * Group commit: every unit of the batch runs one after another in ONE transaction, each in its
 * own savepoint; one COMMIT makes them all durable, and only then are their callers answered.
 */
export async function executeBatch(
  db: Kysely<Database>,
  units: QueuedUnit[],
  dialect: BatchDialect,
): Promise<void> {
  let clock: () => number;
  try {
    clock = await dialect.begin(db);
  } catch (error) {
    await rollbackQuietly(db);
    throw unavailable(error);
  }
  const context = (): TxContext => ({ db, now: clock(), dialect: dialect.dialect });
  const outcomes: Outcome[] = [];
  try {
    if (units.length === 1 && units[0]) {
      const outcome = await attempt(units[0], context());
      if (!outcome.ok) {
        await sql`rollback`.execute(db);
        return settle(units, [outcome]);
      }
      outcomes.push(outcome);
    } else {
      for (const unit of units) outcomes.push(await runInSavepoint(db, unit, context()));
    }
    await sql`commit`.execute(db);
  } catch (error) {
    await rollbackQuietly(db);
    throw unavailable(error);
  }
  settle(units, outcomes);
}
