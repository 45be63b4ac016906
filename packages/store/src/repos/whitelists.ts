import { sql } from 'kysely';
import type { TxContext } from '../db/schema.js';
import type { DetectionRecord, PatternCounts, WhitelistRecord } from '../whitelist-types.js';
import { changed, int, intOrNull } from './rows.js';

/** Detection rows per INSERT statement (9 bound values each). */
const DETECTION_BATCH = 500;

type WhitelistRow = {
  id: string;
  pattern: string;
  scope: string;
  path: string | null;
  agent_id: string | null;
  justification: string;
  created_by: string;
  created_at: number | string;
  expires_at: number | string;
  reviewed_at: number | string | null;
  review_gate_id: string | null;
  source_gate_id: string | null;
  suppressed: number | string;
};

function whitelistOf(row: WhitelistRow): WhitelistRecord {
  return {
    id: row.id,
    pattern: row.pattern,
    scope: row.scope === 'file' ? 'file' : 'global',
    path: row.path,
    agentId: row.agent_id,
    justification: row.justification,
    createdBy: row.created_by,
    createdAt: int(row.created_at),
    expiresAt: int(row.expires_at),
    reviewedAt: intOrNull(row.reviewed_at),
    reviewGateId: row.review_gate_id,
    sourceGateId: row.source_gate_id,
    suppressed: int(row.suppressed),
  };
}

export async function insertWhitelist({ db }: TxContext, entry: WhitelistRecord): Promise<void> {
  await db
    .insertInto('whitelists')
    .values({
      id: entry.id,
      pattern: entry.pattern,
      scope: entry.scope,
      path: entry.path,
      agent_id: entry.agentId,
      justification: entry.justification,
      created_by: entry.createdBy,
      created_at: entry.createdAt,
      expires_at: entry.expiresAt,
      reviewed_at: entry.reviewedAt,
      review_gate_id: entry.reviewGateId,
      source_gate_id: entry.sourceGateId,
      suppressed: entry.suppressed,
    })
    .execute();
}

export async function getWhitelist({ db }: TxContext, id: string): Promise<WhitelistRecord | null> {
  const row = await db.selectFrom('whitelists').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : whitelistOf(row);
}

export async function listWhitelists({ db }: TxContext): Promise<WhitelistRecord[]> {
  const rows = await db.selectFrom('whitelists').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(whitelistOf);
}

export async function updateWhitelist({ db }: TxContext, entry: WhitelistRecord): Promise<boolean> {
  const result = await db
    .updateTable('whitelists')
    .set({
      scope: entry.scope,
      path: entry.path,
      agent_id: entry.agentId,
      justification: entry.justification,
      created_by: entry.createdBy,
      expires_at: entry.expiresAt,
      reviewed_at: entry.reviewedAt,
      review_gate_id: entry.reviewGateId,
      source_gate_id: entry.sourceGateId,
      suppressed: entry.suppressed,
    })
    .where('id', '=', entry.id)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function setWhitelistReviewGate(
  { db }: TxContext,
  id: string,
  gateId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('whitelists')
    .set({ review_gate_id: gateId })
    .where('id', '=', id)
    .where('review_gate_id', 'is', null)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}

export async function addWhitelistSuppressed({ db }: TxContext, id: string, by: number): Promise<void> {
  await db
    .updateTable('whitelists')
    .set({ suppressed: sql`suppressed + ${by}` })
    .where('id', '=', id)
    .execute();
}

export async function deleteWhitelist({ db }: TxContext, id: string): Promise<boolean> {
  const result = await db.deleteFrom('whitelists').where('id', '=', id).executeTakeFirst();
  return changed(result.numDeletedRows) === 1;
}

export async function insertDetections(
  { db }: TxContext,
  records: readonly DetectionRecord[],
): Promise<void> {
  // In statements of DETECTION_BATCH rows: a change with thousands of findings would pass the
  // engines' limit on bound values in one statement (SQLite 32,766; Postgres 65,535).
  for (let start = 0; start < records.length; start += DETECTION_BATCH) {
    await insertDetectionRows(db, records.slice(start, start + DETECTION_BATCH));
  }
}

async function insertDetectionRows(db: TxContext['db'], records: readonly DetectionRecord[]): Promise<void> {
  await db
    .insertInto('detections')
    .values(
      records.map((record) => ({
        id: record.id,
        pattern: record.pattern,
        run_id: record.runId,
        finding_key: record.findingKey,
        file: record.file,
        snippet: record.snippet,
        confidence: record.confidence,
        suppressed_by: record.suppressedBy,
        created_at: record.createdAt,
      })),
    )
    .execute();
}

export async function listDetections(
  { db }: TxContext,
  filter: { pattern?: string; runId?: string; findingKey?: string },
): Promise<DetectionRecord[]> {
  let query = db.selectFrom('detections').selectAll();
  if (filter.pattern !== undefined) query = query.where('pattern', '=', filter.pattern);
  if (filter.runId !== undefined) query = query.where('run_id', '=', filter.runId);
  if (filter.findingKey !== undefined) query = query.where('finding_key', '=', filter.findingKey);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    pattern: row.pattern,
    runId: row.run_id,
    findingKey: row.finding_key,
    file: row.file,
    snippet: row.snippet,
    confidence: Number(row.confidence),
    suppressedBy: row.suppressed_by,
    createdAt: int(row.created_at),
  }));
}

export async function countDetections({ db }: TxContext): Promise<PatternCounts[]> {
  const rows = await db
    .selectFrom('detections')
    .select((eb) => [
      'pattern',
      eb.fn.countAll().as('detections'),
      eb.fn.count('suppressed_by').as('suppressed'),
    ])
    .groupBy('pattern')
    .orderBy('pattern')
    .execute();
  return rows.map((row) => ({
    pattern: row.pattern,
    detections: int(row.detections),
    suppressed: int(row.suppressed),
  }));
}

export async function getPatternAlert({ db }: TxContext, pattern: string): Promise<number | null> {
  const row = await db
    .selectFrom('pattern_alerts')
    .select('alerted_at')
    .where('pattern', '=', pattern)
    .executeTakeFirst();
  return row === undefined ? null : int(row.alerted_at);
}

export async function setPatternAlert({ db }: TxContext, pattern: string, at: number | null): Promise<void> {
  await db.deleteFrom('pattern_alerts').where('pattern', '=', pattern).execute();
  if (at !== null) await db.insertInto('pattern_alerts').values({ pattern, alerted_at: at }).execute();
}
