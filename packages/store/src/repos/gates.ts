import type { Gate } from '@gatehouse/core';
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Database, TxContext } from '../db/schema.js';
import type { GateFilter, Page } from '../types.js';
import { changed, decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

type GateQuery<O> = SelectQueryBuilder<Database, 'gates', O>;

/** The stored document: a `version` read back by getGate belongs to the row, not the document. */
function documentOf(gate: Gate): string {
  const { version: _version, ...document } = gate as Gate & { version?: unknown };
  return JSON.stringify(document);
}

function indexedColumns(gate: Gate) {
  return {
    status: gate.status,
    type: gate.type,
    risk: gate.risk,
    agent_id: gate.agentId,
    run_id: gate.runId,
    timeout_at: gate.timeoutAt,
    created_at: gate.createdAt,
    data: documentOf(gate),
  };
}

async function writeAssignees({ db }: TxContext, gate: Gate, replace: boolean): Promise<void> {
  if (replace) await db.deleteFrom('gate_assignees').where('gate_id', '=', gate.id).execute();
  const assignees = [...new Set(gate.assignees)];
  if (assignees.length === 0) return;
  await db
    .insertInto('gate_assignees')
    .values(assignees.map((assignee) => ({ gate_id: gate.id, assignee })))
    .execute();
}

export async function insertGate(ctx: TxContext, gate: Gate): Promise<void> {
  await ctx.db
    .insertInto('gates')
    .values({ id: gate.id, version: 1, ...indexedColumns(gate) })
    .execute();
  await writeAssignees(ctx, gate, false);
}

function withVersion(row: { data: string; version: number }): Gate & { version: number } {
  return { ...parseJson<Gate>(row.data), version: int(row.version) };
}

export async function getGate({ db }: TxContext, id: string): Promise<(Gate & { version: number }) | null> {
  const row = await db
    .selectFrom('gates')
    .select(['data', 'version'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? withVersion(row) : null;
}

function applyFilter<O>(query: GateQuery<O>, filter: Omit<GateFilter, 'limit' | 'cursor'>): GateQuery<O> {
  let q = query;
  if (filter.status !== undefined) {
    const statuses = Array.isArray(filter.status) ? filter.status : [filter.status];
    q = statuses.length === 0 ? q.where((eb) => eb.lit(false)) : q.where('status', 'in', statuses);
  }
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.risk !== undefined) q = q.where('risk', '=', filter.risk);
  if (filter.agentId !== undefined) q = q.where('agent_id', '=', filter.agentId);
  if (filter.runId !== undefined) q = q.where('run_id', '=', filter.runId);
  const assignee = filter.assignee;
  if (assignee !== undefined) {
    q = q.where('id', 'in', (eb: ExpressionBuilder<Database, 'gates'>) =>
      eb.selectFrom('gate_assignees').select('gate_id').where('assignee', '=', assignee),
    );
  }
  return q;
}

export async function listGates({ db }: TxContext, filter: GateFilter): Promise<Page<Gate>> {
  const limit = pageLimit(filter.limit);
  let query = applyFilter(db.selectFrom('gates').select(['id', 'created_at', 'data']), filter);
  if (filter.cursor !== undefined) {
    const [createdAt, id] = decodeCursor(filter.cursor, ['number', 'string'] as const);
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('id', '>', id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  return toPage(
    rows,
    limit,
    (row) => parseJson<Gate>(row.data),
    (row) => [int(row.created_at), row.id],
  );
}

export async function countGates(
  { db }: TxContext,
  filter: Omit<GateFilter, 'limit' | 'cursor'>,
): Promise<number> {
  const row = await applyFilter(
    db.selectFrom('gates').select((eb) => eb.fn.countAll().as('count')),
    filter,
  ).executeTakeFirstOrThrow();
  return int(row.count);
}

export async function updateGate(
  ctx: TxContext,
  gate: Gate,
  expectedVersion: number,
  options: { beforeDeadline?: boolean } = {},
): Promise<boolean> {
  let update = ctx.db
    .updateTable('gates')
    .set((eb) => ({ ...indexedColumns(gate), version: eb('version', '+', 1) }))
    .where('id', '=', gate.id)
    .where('version', '=', expectedVersion)
    .where('status', '=', 'pending');
  if (options.beforeDeadline === true) {
    update = update.where((eb) => eb.or([eb('timeout_at', 'is', null), eb('timeout_at', '>', ctx.now)]));
  }
  const result = await update.executeTakeFirst();
  if (changed(result.numUpdatedRows) !== 1) return false;
  await writeAssignees(ctx, gate, true);
  return true;
}

export async function claimDueGates(ctx: TxContext, limit: number): Promise<(Gate & { version: number })[]> {
  const rows = await ctx.db
    .selectFrom('gates')
    .select(['data', 'version'])
    .where('status', '=', 'pending')
    .where('timeout_at', '<=', ctx.now)
    .orderBy('timeout_at')
    .orderBy('id')
    .limit(pageLimit(limit))
    .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .execute();
  return rows.map(withVersion);
}
