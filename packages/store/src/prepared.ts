import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { assertNoNulParameters } from './db/reject-nul.js';
import type { Database, DirectExecute, TxContext } from './db/schema.js';

/**
 * A query of a fixed shape on the hot path: Kysely builds and compiles it once per store, and
 * later calls send the same SQL text with new parameters, skipping the builder and the compiler.
 */
export interface PreparedQuery<I> {
  readonly name: string;
  /** The query as Kysely builds it; only its SQL text is kept. */
  build(db: Kysely<Database>, input: I): Compilable;
  /** The parameters, in the order `build` places them in the SQL text (checked on first use). */
  parameters(input: I): unknown[];
}

/** Declares a prepared query; `name` must be unique within the store. */
export function preparedQuery<I>(
  name: string,
  build: PreparedQuery<I>['build'],
  parameters: PreparedQuery<I>['parameters'],
): PreparedQuery<I> {
  return { name, build, parameters };
}

function assertSameParameters(name: string, compiled: readonly unknown[], given: readonly unknown[]): void {
  const same = compiled.length === given.length && compiled.every((value, i) => Object.is(value, given[i]));
  if (!same) throw new Error(`prepared query ${name}: parameters() does not match the built query's order`);
}

/** Runs a prepared query in the unit of work (or read) of `ctx`. */
export async function runPrepared<R, I>(
  ctx: TxContext,
  query: PreparedQuery<I>,
  input: I,
): Promise<QueryResult<R>> {
  const parameters = query.parameters(input);
  // Plugins do not run on a query compiled earlier: the NUL rule is applied here, on every engine.
  assertNoNulParameters(parameters);
  const text = ctx.statements.get(query.name);
  if (text !== undefined && ctx.execute !== undefined) return ctx.execute(text, parameters) as QueryResult<R>;
  if (text !== undefined) return ctx.db.executeQuery<R>(CompiledQuery.raw(text, parameters));
  const compiled = query.build(ctx.db, input).compile();
  assertSameParameters(query.name, compiled.parameters, parameters);
  const result = await ctx.db.executeQuery<R>(compiled);
  ctx.statements.set(query.name, compiled.sql);
  return result;
}

/** Rows changed by a prepared insert, update or delete. */
export function affectedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}

/** Runs a statement that takes no parameters and has no builder (BEGIN, SAVEPOINT …). */
export async function runStatement(
  db: Kysely<Database>,
  text: string,
  execute?: DirectExecute,
): Promise<void> {
  if (execute !== undefined) execute(text, []);
  else await db.executeQuery(CompiledQuery.raw(text, []));
}
