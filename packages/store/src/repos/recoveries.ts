import type { TxContext } from '../db/schema.js';
import type { FalsePositiveRecord, RecoveryRecord } from '../recovery-types.js';
import { changed, int, parseJson } from './rows.js';

type StoredRecovery = RecoveryRecord & { version: number };

/** The stored document: a `version` read back belongs to the row, not the document. */
function documentOf(recovery: RecoveryRecord): string {
  const { version: _version, ...document } = recovery as RecoveryRecord & { version?: unknown };
  return JSON.stringify(document);
}

function recoveryOf(row: { data: string; version: number | string }): StoredRecovery {
  return { ...parseJson<RecoveryRecord>(row.data), version: int(row.version) };
}

export async function insertRecovery({ db }: TxContext, recovery: RecoveryRecord): Promise<void> {
  await db
    .insertInto('recoveries')
    .values({
      run_id: recovery.runId,
      finding_key: recovery.key,
      status: recovery.status,
      created_at: recovery.createdAt,
      version: 1,
      data: documentOf(recovery),
    })
    .execute();
}

export async function getRecovery(
  { db }: TxContext,
  runId: string,
  key: string,
): Promise<StoredRecovery | null> {
  const row = await db
    .selectFrom('recoveries')
    .select(['data', 'version'])
    .where('run_id', '=', runId)
    .where('finding_key', '=', key)
    .executeTakeFirst();
  return row === undefined ? null : recoveryOf(row);
}

export async function listRecoveries({ db }: TxContext, runId: string): Promise<RecoveryRecord[]> {
  const rows = await db
    .selectFrom('recoveries')
    .select(['data', 'version'])
    .where('run_id', '=', runId)
    .orderBy('created_at')
    .orderBy('finding_key')
    .execute();
  return rows.map((row) => {
    const { version: _version, ...recovery } = recoveryOf(row);
    return recovery;
  });
}

export async function updateRecovery(
  { db }: TxContext,
  recovery: RecoveryRecord,
  expectedVersion: number,
): Promise<boolean> {
  const result = await db
    .updateTable('recoveries')
    .set({ status: recovery.status, version: expectedVersion + 1, data: documentOf(recovery) })
    .where('run_id', '=', recovery.runId)
    .where('finding_key', '=', recovery.key)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function insertFalsePositive({ db }: TxContext, record: FalsePositiveRecord): Promise<void> {
  await db
    .insertInto('false_positives')
    .values({
      id: record.id,
      pattern: record.pattern,
      run_id: record.runId,
      finding_key: record.findingKey,
      file: record.file,
      gate_id: record.gateId,
      confirmed_by: record.confirmedBy,
      created_at: record.createdAt,
    })
    .execute();
}

export async function listFalsePositives(
  { db }: TxContext,
  filter: { pattern?: string; runId?: string },
): Promise<FalsePositiveRecord[]> {
  let query = db.selectFrom('false_positives').selectAll();
  if (filter.pattern !== undefined) query = query.where('pattern', '=', filter.pattern);
  if (filter.runId !== undefined) query = query.where('run_id', '=', filter.runId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    pattern: row.pattern,
    runId: row.run_id,
    findingKey: row.finding_key,
    file: row.file,
    gateId: row.gate_id,
    confirmedBy: row.confirmed_by,
    createdAt: int(row.created_at),
  }));
}
