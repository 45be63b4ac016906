import type { Run } from 'gatehouse-hitl-core';
import type { TxContext } from '../db/schema.js';
import { affectedRows, preparedQuery, runPrepared } from '../prepared.js';
import type { Page, RunFilter } from '../types.js';
import { decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

/** The stored document: a `version` read back by getRun belongs to the row, not the document. */
function documentOf(run: Run): string {
  const { version: _version, ...document } = run as Run & { version?: unknown };
  return JSON.stringify(document);
}

export async function insertRun({ db }: TxContext, run: Run): Promise<void> {
  await db
    .insertInto('runs')
    .values({
      id: run.id,
      agent_id: run.agentId,
      status: run.status,
      created_at: run.createdAt,
      updated_at: run.updatedAt,
      version: 1,
      data: documentOf(run),
    })
    .execute();
}

const runById = preparedQuery(
  'run-by-id',
  (db, id: string) => db.selectFrom('runs').select(['data', 'version']).where('id', '=', id),
  (id) => [id],
);

export async function getRun(ctx: TxContext, id: string): Promise<(Run & { version: number }) | null> {
  const { rows } = await runPrepared<{ data: string; version: number }, string>(ctx, runById, id);
  const row = rows[0];
  return row ? { ...parseJson<Run>(row.data), version: int(row.version) } : null;
}

export async function listRuns({ db }: TxContext, filter: RunFilter): Promise<Page<Run>> {
  const limit = pageLimit(filter.limit);
  let query = db.selectFrom('runs').select(['id', 'created_at', 'data']);
  if (filter.agentId !== undefined) query = query.where('agent_id', '=', filter.agentId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.cursor !== undefined) {
    const [createdAt, id] = decodeCursor(filter.cursor, ['number', 'string'] as const);
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return toPage(
    rows,
    limit,
    (row) => parseJson<Run>(row.data),
    (row) => [int(row.created_at), row.id],
  );
}

interface RunUpdate {
  id: string;
  agentId: string;
  status: string;
  updatedAt: number;
  data: string;
  expectedVersion: number;
}

const updateVersioned = preparedQuery(
  'run-update',
  (db, update: RunUpdate) =>
    db
      .updateTable('runs')
      .set((eb) => ({
        agent_id: update.agentId,
        status: update.status,
        updated_at: update.updatedAt,
        data: update.data,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', update.id)
      .where('version', '=', update.expectedVersion),
  (update) => [
    update.agentId,
    update.status,
    update.updatedAt,
    update.data,
    1,
    update.id,
    update.expectedVersion,
  ],
);

export async function updateRun(ctx: TxContext, run: Run, expectedVersion: number): Promise<boolean> {
  const update = {
    id: run.id,
    agentId: run.agentId,
    status: run.status,
    updatedAt: run.updatedAt,
    data: documentOf(run),
    expectedVersion,
  };
  return affectedRows(await runPrepared(ctx, updateVersioned, update)) === 1;
}
