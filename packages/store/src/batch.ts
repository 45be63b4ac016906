import type { Kysely } from 'kysely';
import {
  type CarriedFacts,
  type Database,
  type Dialect,
  type DirectExecute,
  forgetUnitFacts,
  newTxMemo,
  type TxContext,
  type TxMemo,
} from './db/schema.js';
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
  /** Runs SQL on the write connection without Kysely, where the engine allows. */
  execute?: DirectExecute | undefined;
  /** Runs after a batch in which a unit wrote tokens or people, before any of its callers hears back. */
  onCredentialsChanged(): void;
  /**
   * The audit chain's head and the subscribed webhook event types after the last batch, kept only
   * where this store is the database's one writer.
   */
  carried?: CarriedFacts | undefined;
  /** Runs in every batch's transaction just before its commit, after all of its units. */
  beforeCommit?: ((ctx: TxContext) => Promise<void>) | undefined;
}

/** One batch's connection and what its units share. */
interface Scope {
  db: Kysely<Database>;
  statements: Map<string, string>;
  memo: TxMemo;
  execute: DirectExecute | undefined;
  beforeCommit: BatchShared['beforeCommit'];
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function run(scope: Scope, text: string): Promise<void> {
  return runStatement(scope.db, text, scope.execute);
}

async function rollbackQuietly(scope: Scope): Promise<void> {
  await run(scope, 'rollback').catch(() => undefined);
}

async function attempt(unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  try {
    return { ok: true, value: await runAsUnit(() => unit.work(ctx)) };
  } catch (error) {
    return { ok: false, error: translateUnitError(error) };
  }
}

/** Each unit inside its own savepoint, so a throw undoes only that unit (and what the memo learnt from it). */
async function runInSavepoint(scope: Scope, unit: QueuedUnit, ctx: TxContext): Promise<Outcome> {
  await run(scope, 'savepoint gh_unit');
  const outcome = await attempt(unit, ctx);
  if (!outcome.ok) {
    await run(scope, 'rollback to savepoint gh_unit');
    forgetUnitFacts(scope.memo);
  }
  await run(scope, 'release savepoint gh_unit');
  return outcome;
}

function settle(units: QueuedUnit[], outcomes: Outcome[]): void {
  units.forEach((unit, i) => {
    const outcome = outcomes[i];
    if (outcome?.ok) unit.resolve(outcome.value);
    else unit.reject(outcome ? outcome.error : new Error('unit did not run'));
  });
}

/** The first unit of a batch run without savepoints that threw: the batch was rolled back. */
interface Failed {
  outcome: Outcome;
}

async function runBatch(
  scope: Scope,
  units: QueuedUnit[],
  dialect: BatchDialect,
  savepoints: boolean,
): Promise<Outcome[] | Failed> {
  let clock: () => number;
  try {
    clock = await dialect.begin(scope.db);
  } catch (error) {
    await rollbackQuietly(scope);
    throw unavailable(error);
  }
  const { db, statements, memo, execute } = scope;
  const context = (): TxContext => ({
    db,
    now: clock(),
    dialect: dialect.dialect,
    statements,
    memo,
    execute,
  });
  const outcomes: Outcome[] = [];
  try {
    if (savepoints) {
      for (const unit of units) outcomes.push(await runInSavepoint(scope, unit, context()));
    } else {
      for (const unit of units) {
        const outcome = await attempt(unit, context());
        if (!outcome.ok) {
          await run(scope, 'rollback');
          forgetUnitFacts(scope.memo);
          return { outcome };
        }
        outcomes.push(outcome);
      }
    }
    await scope.beforeCommit?.(context());
    await run(scope, 'commit');
  } catch (error) {
    await rollbackQuietly(scope);
    throw unavailable(error);
  }
  return outcomes;
}

/**
 * A lone unit, or a batch of replayable ones, runs without savepoints. When one of those throws,
 * the batch is rolled back and every unit runs again, each in a savepoint: the thrown unit too, since
 * what it saw of the units before it was rolled back (and, on Postgres, another node may have
 * committed since), so only the run that commits may answer it.
 */
async function runUnits(scope: Scope, units: QueuedUnit[], dialect: BatchDialect): Promise<Outcome[]> {
  const optimistic = units.length === 1 || units.every((unit) => unit.replayable);
  const ran = await runBatch(scope, units, dialect, !optimistic);
  if (Array.isArray(ran)) return ran;
  // A lone unit saw nothing that was rolled back: its own error stands.
  if (units.length === 1) return [ran.outcome];
  const again = await runBatch(scope, units, dialect, true);
  if (!Array.isArray(again)) throw new Error('a unit in a savepoint stopped its batch');
  return again;
}

/**
 * Group commit: every unit of the batch runs one after another in ONE transaction, each in its
 * own savepoint (or, replayable units, none); one COMMIT makes them all durable, and only then are
 * their callers answered.
 */
export async function executeBatch(
  db: Kysely<Database>,
  units: QueuedUnit[],
  dialect: BatchDialect,
  shared: BatchShared,
): Promise<void> {
  const scope: Scope = {
    db,
    statements: shared.statements,
    memo: newTxMemo(shared.carried !== undefined),
    execute: shared.execute,
    beforeCommit: shared.beforeCommit,
  };
  const carried = shared.carried;
  if (carried !== undefined) {
    scope.memo.auditHead = carried.auditHead;
    scope.memo.webhookEvents = carried.webhookEvents;
    // Unknown until this batch commits: a batch that fails leaves the next one to read them again.
    forgetUnitFacts(carried);
  }
  let outcomes: Outcome[];
  try {
    outcomes = await runUnits(scope, units, dialect);
  } finally {
    // Even a failed COMMIT may have landed (a dropped connection): caches look again either way.
    if (scope.memo.credentialsChanged) shared.onCredentialsChanged();
  }
  if (carried !== undefined) {
    carried.auditHead = scope.memo.auditHead;
    carried.webhookEvents = scope.memo.webhookEvents;
  }
  settle(units, outcomes);
}
