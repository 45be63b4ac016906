import type { Gate } from 'gatehouse-hitl-core';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, TxContext } from '../db/schema.js';
import { affectedRows, preparedQuery, runPrepared } from '../prepared.js';
import type { GateFilter, Page } from '../types.js';
import { byCreation, decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

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

type GateColumns = ReturnType<typeof indexedColumns>;

function columnValues(columns: GateColumns): unknown[] {
  const { status, type, risk, agent_id, run_id, timeout_at, created_at, data } = columns;
  return [status, type, risk, agent_id, run_id, timeout_at, created_at, data];
}

const deleteAssignees = preparedQuery(
  'gate-assignees-delete',
  (db, gateId: string) => db.deleteFrom('gate_assignees').where('gate_id', '=', gateId),
  (gateId) => [gateId],
);

async function writeAssignees(ctx: TxContext, gate: Gate, replace: boolean): Promise<void> {
  if (replace) await runPrepared(ctx, deleteAssignees, gate.id);
  const assignees = [...new Set(gate.assignees)];
  if (assignees.length === 0) return;
  await ctx.db
    .insertInto('gate_assignees')
    .values(assignees.map((assignee) => ({ gate_id: gate.id, assignee })))
    .execute();
}

const insertGateRow = preparedQuery(
  'gate-insert',
  (db, row: { id: string; version: number } & GateColumns) => db.insertInto('gates').values(row),
  (row) => [row.id, row.version, ...columnValues(row)],
);

export async function insertGate(ctx: TxContext, gate: Gate): Promise<void> {
  await runPrepared(ctx, insertGateRow, { id: gate.id, version: 1, ...indexedColumns(gate) });
  await writeAssignees(ctx, gate, false);
}

// Gates stored before edit-then-approve existed have no `editable`; they were never editable.
function gateOf(data: string): Gate {
  const gate = parseJson<Gate>(data);
  return gate.editable === undefined ? { ...gate, editable: false } : gate;
}

function withVersion(row: { data: string; version: number }): Gate & { version: number } {
  return { ...gateOf(row.data), version: int(row.version) };
}

const gateById = preparedQuery(
  'gate-by-id',
  (db, id: string) => db.selectFrom('gates').select(['data', 'version']).where('id', '=', id),
  (id) => [id],
);

export async function getGate(ctx: TxContext, id: string): Promise<(Gate & { version: number }) | null> {
  const { rows } = await runPrepared<{ data: string; version: number }, string>(ctx, gateById, id);
  return rows[0] ? withVersion(rows[0]) : null;
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

/** Whether `filter` sets exactly these fields (a limit aside). */
function setsExactly(filter: GateFilter, fields: readonly (keyof GateFilter)[]): boolean {
  const set = Object.keys(filter).filter(
    (key) => key !== 'limit' && filter[key as keyof GateFilter] !== undefined,
  );
  return set.length === fields.length && fields.every((field) => filter[field] !== undefined);
}

type PendingOfRunByType = { runId: string; status: 'pending'; type: string };

function isPendingOfRunByType(filter: GateFilter): filter is PendingOfRunByType & GateFilter {
  return filter.status === 'pending' && setsExactly(filter, ['status', 'runId', 'type']);
}

// A run's hold looks for its pending phase review at every gate that opens or ends on it. With an
// ORDER BY the engines walk gates_run, every gate the run ever had; without one they take the partial
// index of pending gates (gates_pending_run), and the few rows it gives are put in order here.
const pendingOfRunByType = preparedQuery(
  'gate-list-pending-of-run-by-type',
  (db, filter: PendingOfRunByType) =>
    db
      .selectFrom('gates')
      .select(['id', 'created_at', 'data'])
      .where('run_id', '=', filter.runId)
      .where('status', '=', sql.lit('pending'))
      .where('type', '=', filter.type),
  (filter) => [filter.runId, filter.type],
);

type ListedRow = { id: string; created_at: number; data: string };

function toGatePage(rows: ListedRow[], limit: number): Page<Gate> {
  return toPage(
    rows,
    limit,
    (row) => gateOf(row.data),
    (row) => [int(row.created_at), row.id],
  );
}

export async function listGates(ctx: TxContext, filter: GateFilter): Promise<Page<Gate>> {
  const limit = pageLimit(filter.limit);
  if (isPendingOfRunByType(filter)) {
    const { rows } = await runPrepared<ListedRow, PendingOfRunByType>(ctx, pendingOfRunByType, filter);
    return toGatePage(rows.sort(byCreation).slice(0, limit + 1), limit);
  }
  let query = applyFilter(ctx.db.selectFrom('gates').select(['id', 'created_at', 'data']), filter);
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
  return toGatePage(rows, limit);
}

type CountFilter = Omit<GateFilter, 'limit' | 'cursor'>;

function buildCount(db: TxContext['db'], filter: CountFilter) {
  return applyFilter(
    db.selectFrom('gates').select((eb) => eb.fn.countAll().as('count')),
    filter,
  );
}

// Every gate that opens or ends on a run asks how many of the run's gates are still pending. The
// status is written into the SQL so that the partial index of pending gates (gates_pending_run) serves it.
const pendingOfRun = preparedQuery(
  'gate-count-pending-of-run',
  (db, runId: string) => buildCount(db, { runId }).where('status', '=', sql.lit('pending')),
  (runId) => [runId],
);

function isPendingOfRun(filter: CountFilter): filter is { status: 'pending'; runId: string } {
  return filter.status === 'pending' && setsExactly(filter, ['status', 'runId']);
}

export async function countGates(ctx: TxContext, filter: CountFilter): Promise<number> {
  if (isPendingOfRun(filter)) {
    const { rows } = await runPrepared<{ count: number }, string>(ctx, pendingOfRun, filter.runId);
    return int(rows[0]?.count);
  }
  const row = await buildCount(ctx.db, filter).executeTakeFirstOrThrow();
  return int(row.count);
}

interface GateUpdate {
  columns: GateColumns;
  id: string;
  expectedVersion: number;
  now: number;
}

// A gate's agent, run and creation time are fixed when it opens. An update leaves their columns out
// of its SET list, so the three indexes on them are not rewritten (SQLite rewrites an index entry for
// every column set, changed or not), and checks them instead: a gate changed in any of them matches no row.
function buildUpdate(db: TxContext['db'], update: GateUpdate) {
  const { status, type, risk, timeout_at, data, agent_id, run_id, created_at } = update.columns;
  return db
    .updateTable('gates')
    .set((eb) => ({ status, type, risk, timeout_at, data, version: eb('version', '+', 1) }))
    .where('id', '=', update.id)
    .where('version', '=', update.expectedVersion)
    .where('status', '=', 'pending')
    .where('agent_id', 'is not distinct from', agent_id)
    .where('run_id', 'is not distinct from', run_id)
    .where('created_at', '=', created_at);
}

const updatePending = preparedQuery('gate-update', buildUpdate, ({ columns, id, expectedVersion }) => [
  columns.status,
  columns.type,
  columns.risk,
  columns.timeout_at,
  columns.data,
  1,
  id,
  expectedVersion,
  'pending',
  columns.agent_id,
  columns.run_id,
  columns.created_at,
]);

// The deadline is checked by the same statement, so a late decision can never land.
const updatePendingBeforeDeadline = preparedQuery(
  'gate-update-before-deadline',
  (db, update: GateUpdate) =>
    buildUpdate(db, update).where((eb) =>
      eb.or([eb('timeout_at', 'is', null), eb('timeout_at', '>', update.now)]),
    ),
  (update) => [...updatePending.parameters(update), update.now],
);

export async function updateGate(
  ctx: TxContext,
  gate: Gate,
  expectedVersion: number,
  options: { beforeDeadline?: boolean } = {},
): Promise<boolean> {
  const update = { columns: indexedColumns(gate), id: gate.id, expectedVersion, now: ctx.now };
  const query = options.beforeDeadline === true ? updatePendingBeforeDeadline : updatePending;
  if (affectedRows(await runPrepared(ctx, query, update)) !== 1) return false;
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

export async function setGateTraceContext(
  ctx: TxContext,
  gateId: string,
  traceContext: string,
): Promise<void> {
  await ctx.db.updateTable('gates').set({ trace_context: traceContext }).where('id', '=', gateId).execute();
}

export async function getGateTraceContext(ctx: TxContext, gateId: string): Promise<string | null> {
  const row = await ctx.db
    .selectFrom('gates')
    .select('trace_context')
    .where('id', '=', gateId)
    .executeTakeFirst();
  return row?.trace_context ?? null;
}
