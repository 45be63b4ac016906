import { type AuditEvent, plainCanonicalJson } from 'gatehouse-hitl-core';
import { type Selectable, sql } from 'kysely';
import { auditHash, GENESIS_HASH, newAuditEventId } from '../audit/hash.js';
import type { AuditEventsTable, TxContext } from '../db/schema.js';
import { RETENTION_SETTING } from '../migrations/0004-audit-append-only.js';
import { preparedQuery, runPrepared } from '../prepared.js';
import type { AuditCheckpoint, AuditFilter, AuditHead, AuditInput, Page, StartSigner } from '../types.js';
import { queryThroughFilterTables, removeFilterRows, scanEvents } from './audit-filter-index.js';
import { changed, decodeCursor, int, pageLimit, parseJson, toPage } from './rows.js';

const CHECKPOINT_ID = 1;

function toEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return {
    seq: int(row.seq),
    id: row.id,
    at: int(row.at),
    kind: row.kind,
    actor: row.actor,
    subject: row.subject,
    data: parseJson<Record<string, unknown>>(row.data),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

export async function getAuditCheckpoint({ db }: TxContext): Promise<AuditCheckpoint | null> {
  const row = await db
    .selectFrom('audit_checkpoint')
    .selectAll()
    .where('id', '=', CHECKPOINT_ID)
    .executeTakeFirst();
  if (!row) return null;
  return {
    seq: int(row.seq),
    hash: row.hash,
    truncatedAt: int(row.truncated_at),
    removed: int(row.removed),
    keyId: row.key_id ?? null,
    signature: row.signature ?? null,
  };
}

const lastEvent = preparedQuery(
  'audit-last-event',
  (db, _: null) => db.selectFrom('audit_events').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1),
  () => [1],
);

type AuditRow = Selectable<AuditEventsTable>;

const insertEvent = preparedQuery(
  'audit-insert',
  (db, row: AuditRow) => db.insertInto('audit_events').values(row),
  (row) => [row.seq, row.id, row.at, row.kind, row.actor, row.subject, row.data, row.prev_hash, row.hash],
);

async function chainHead(ctx: TxContext): Promise<{ seq: number; hash: string }> {
  if (ctx.memo.auditHead !== null) return ctx.memo.auditHead;
  const { rows } = await runPrepared<{ seq: number; hash: string }, null>(ctx, lastEvent, null);
  const last = rows[0];
  if (last) return { seq: int(last.seq), hash: last.hash };
  const checkpoint = await getAuditCheckpoint(ctx);
  return checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : { seq: 0, hash: GENESIS_HASH };
}

/** The chain's last link as this transaction sees it (its own appends included). */
export async function getAuditHead(ctx: TxContext): Promise<AuditHead> {
  const last = await ctx.db
    .selectFrom('audit_events')
    .select(['seq', 'hash', 'kind'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last) return { seq: int(last.seq), hash: last.hash, kind: last.kind };
  const start = await getAuditCheckpoint(ctx);
  return start
    ? { seq: start.seq, hash: start.hash, kind: null }
    : { seq: 0, hash: GENESIS_HASH, kind: null };
}

/**
 * Appends one link. Callers run inside a write transaction that is the only writer of the chain
 * (SQLite has one writer; Postgres write batches hold an advisory lock), so the head cannot move.
 */
export async function appendAudit(ctx: TxContext, input: AuditInput): Promise<AuditEvent> {
  const head = await chainHead(ctx);
  // Hash exactly what will be read back: JSON drops undefined, turns dates into strings, and so on.
  // Data built only of JSON's own kinds reads back as it is, so only other data is copied through JSON.
  const given = input.data ?? {};
  const text = JSON.stringify(given);
  const plainText = plainCanonicalJson(given);
  const data = plainText === undefined ? parseJson<Record<string, unknown>>(text) : given;
  const fields = {
    seq: head.seq + 1,
    id: newAuditEventId(ctx.now),
    at: ctx.now,
    kind: input.kind,
    actor: input.actor,
  };
  const event = { ...fields, subject: input.subject ?? null, data };
  const hash = auditHash(head.hash, event, plainText);
  const row = { ...fields, subject: event.subject, data: text, prev_hash: head.hash, hash };
  await runPrepared(ctx, insertEvent, row);
  // The transaction is the chain's only writer, so the next append may start from here.
  ctx.memo.auditHead = { seq: fields.seq, hash };
  ctx.memo.auditFirstAppended ??= fields.seq;
  return { ...event, prevHash: head.hash, hash };
}

export async function queryAudit(ctx: TxContext, filter: AuditFilter): Promise<Page<AuditEvent>> {
  const limit = pageLimit(filter.limit);
  const afterSeq =
    filter.cursor === undefined ? undefined : decodeCursor(filter.cursor, ['number'] as const)[0];
  const slice = { filter, newestFirst: filter.order === 'desc', afterSeq, count: limit + 1 };
  const rows =
    filter.actor === undefined && filter.subject === undefined
      ? await scanEvents(ctx, slice)
      : await queryThroughFilterTables(ctx, slice);
  return toPage(rows, limit, toEvent, (row) => [int(row.seq)]);
}

/** One batch of the chain in order, for streaming exports. */
export async function auditBatch({ db }: TxContext, fromSeq: number, limit: number): Promise<AuditEvent[]> {
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

/** The last event of the prefix that truncation may remove: everything before the first event at or after `before`. */
type ChainHead = { seq: number; hash: string };

async function lastRemovable(ctx: TxContext, before: number): Promise<ChainHead | null> {
  const firstKept = await ctx.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .where('at', '>=', before)
    .executeTakeFirst();
  let query = ctx.db.selectFrom('audit_events').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1);
  if (firstKept?.seq !== null && firstKept?.seq !== undefined)
    query = query.where('seq', '<', int(firstKept.seq));
  const row = await query.executeTakeFirst();
  return row ? { seq: int(row.seq), hash: row.hash } : null;
}

/** Opens (or closes) the append-only triggers' one exception, for this transaction only. */
async function setRetentionGuard(ctx: TxContext, open: boolean): Promise<void> {
  if (ctx.dialect === 'postgres') {
    await sql`select set_config(${RETENTION_SETTING}, ${open ? 'on' : 'off'}, true)`.execute(ctx.db);
  } else if (open) {
    await ctx.db.insertInto('audit_retention_guard').values({ id: 1 }).execute();
  } else {
    await ctx.db.deleteFrom('audit_retention_guard').execute();
  }
}

async function removePrefix(ctx: TxContext, last: ChainHead, sign?: StartSigner): Promise<AuditCheckpoint> {
  const deleted = await ctx.db.deleteFrom('audit_events').where('seq', '<=', last.seq).executeTakeFirst();
  await removeFilterRows(ctx, last.seq);
  const start = { seq: last.seq, hash: last.hash, truncatedAt: ctx.now };
  const signed = sign ? sign(start) : { keyId: null, signature: null };
  const checkpoint: AuditCheckpoint = { ...start, removed: changed(deleted.numDeletedRows), ...signed };
  const row = {
    seq: checkpoint.seq,
    hash: checkpoint.hash,
    truncated_at: checkpoint.truncatedAt,
    removed: checkpoint.removed,
    key_id: checkpoint.keyId,
    signature: checkpoint.signature,
  };
  await ctx.db
    .insertInto('audit_checkpoint')
    .values({ id: CHECKPOINT_ID, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  return checkpoint;
}

/** Removes the chain's oldest prefix before `before` and records (signed by `sign`) where the rest starts. */
export async function truncateAudit(
  ctx: TxContext,
  before: number,
  sign?: StartSigner,
): Promise<AuditCheckpoint | null> {
  ctx.memo.auditHead = null;
  const last = await lastRemovable(ctx, before);
  if (last === null) return null;
  await setRetentionGuard(ctx, true);
  const checkpoint = await removePrefix(ctx, last, sign);
  await setRetentionGuard(ctx, false);
  return checkpoint;
}
