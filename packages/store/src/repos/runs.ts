import type { Run } from '@gatehouse/core';
import type { TxContext } from '../db/schema.js';
import type { Page, RunFilter } from '../types.js';
import { changed, decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

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

export async function getRun({ db }: TxContext, id: string): Promise<(Run & { version: number }) | null> {
  const row = await db.selectFrom('runs').select(['data', 'version']).where('id', '=', id).executeTakeFirst();
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

export async function updateRun({ db }: TxContext, run: Run, expectedVersion: number): Promise<boolean> {
  const result = await db
    .updateTable('runs')
    .set((eb) => ({
      agent_id: run.agentId,
      status: run.status,
      updated_at: run.updatedAt,
      data: documentOf(run),
      version: eb('version', '+', 1),
    }))
    .where('id', '=', run.id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}
