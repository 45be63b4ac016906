import type { TxContext } from '../db/schema.js';
import type { JournalEntryRecord, JournalFilter } from '../search-types.js';
import type { Page } from '../types.js';
import { decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

interface JournalRow {
  seq: number | string;
  id: string;
  run_id: string;
  kind: string;
  data: string;
  created_at: number | string;
}

function toRecord(row: JournalRow): JournalEntryRecord {
  return {
    id: row.id,
    runId: row.run_id,
    kind: row.kind,
    data: parseJson<Record<string, unknown>>(row.data),
    createdAt: int(row.created_at),
  };
}

export async function insertJournalEntries({ db }: TxContext, entries: JournalEntryRecord[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('journal_entries')
    .values(
      entries.map((entry) => ({
        id: entry.id,
        run_id: entry.runId,
        kind: entry.kind,
        data: JSON.stringify(entry.data),
        created_at: entry.createdAt,
      })),
    )
    .execute();
}

export async function listJournalEntries(
  { db }: TxContext,
  filter: JournalFilter,
): Promise<Page<JournalEntryRecord>> {
  const limit = pageLimit(filter.limit);
  const after = filter.cursor === undefined ? null : decodeCursor(filter.cursor, ['number'])[0];
  const rows = await db
    .selectFrom('journal_entries')
    .selectAll()
    .where('run_id', '=', filter.runId)
    .$if(filter.kind !== undefined, (q) => q.where('kind', '=', filter.kind ?? ''))
    .$if(after !== null, (q) => q.where('seq', '>', after ?? 0))
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toRecord, (row) => [int(row.seq)]);
}

export async function getJournalEntry(
  { db }: TxContext,
  runId: string,
  id: string,
): Promise<JournalEntryRecord | null> {
  const row = await db
    .selectFrom('journal_entries')
    .selectAll()
    .where('run_id', '=', runId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : toRecord(row);
}
