import type { Kysely } from 'kysely';
import { type Database, type Dialect, newTxMemo, type TxContext, type TxMemo } from './db/schema.js';
import { translateUnitError, unavailable } from './db-errors.js';
import type { QueuedUnit } from './group-commit.js';
import { runAsUnit } from './group-commit.js';
import { runStatement } from './prepared.js';

/** How one dialect opens a write transaction. */
export interface BatchDialect {
  readonly dialect: Dialect;
  /** Starts the transaction on `db` and returns where each unit's `now` comes from. */
  begin(db: Kysely<Database>): Promise<() => number>;
}

/** What the batches of one store share. */
export interface BatchShared {
  /** The store's prepared-query texts. */
  statements: Map<string, string>;
  /** Runs after a batch in which a unit wrote tokens or people, before any of its callers hears back. */
  onCredentialsChanged(): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function rollbackQuietly(db: Kysely<Database>): Promise<void> {
  await runStatement(db, 'rollback').catch(() => undefined);
}

async function attempt(unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  try {
    return { ok: true, value: await runAsUnit(() => unit.work(ctx)) };
  } catch (error) {
    return { ok: false, error: translateUnitError(error) };
  }
}

/** Each unit inside its own savepoint, so a throw undoes only that unit (and what the memo learnt from it). */
async function runInSavepoint(db: Kysely<Database>, unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  await runStatement(db, 'savepoint gh_unit');
  const outcome = await attempt(unit, ctx);
  if (!outcome.ok) {
    await runStatement(db, 'rollback to savepoint gh_unit');
    ctx.memo.auditHead = null;
  }
  await runStatement(db, 'release savepoint gh_unit');
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
  shared: BatchShared,
): Promise<void> {
  const memo = newTxMemo();
  let outcomes: Outcome[];
  try {
    outcomes = await runBatch(db, units, dialect, { statements: shared.statements, memo });
  } finally {
    // Even a failed COMMIT may have landed (a dropped connection): caches look again either way.
    if (memo.credentialsChanged) shared.onCredentialsChanged();
  }
  settle(units, outcomes);
}

async function runBatch(
  db: Kysely<Database>,
  units: QueuedUnit[],
  dialect: BatchDialect,
  shared: { statements: Map<string, string>; memo: TxMemo },
): Promise<Outcome[]> {
  let clock: () => number;
  try {
    clock = await dialect.begin(db);
  } catch (error) {
    await rollbackQuietly(db);
    throw unavailable(error);
  }
  const context = (): TxContext => ({ db, now: clock(), dialect: dialect.dialect, ...shared });
  const outcomes: Outcome[] = [];
  try {
    if (units.length === 1 && units[0]) {
      const outcome = await attempt(units[0], context());
      if (!outcome.ok) {
        await runStatement(db, 'rollback');
        return [outcome];
      }
      outcomes.push(outcome);
    } else {
      for (const unit of units) outcomes.push(await runInSavepoint(db, unit, context()));
    }
    await runStatement(db, 'commit');
  } catch (error) {
    await rollbackQuietly(db);
    throw unavailable(error);
  }
  return outcomes;
}
