// Queries by actor and by subject read audit_by_actor and audit_by_subject, filled in batches.
//
// An index on audit_events (actor, seq) puts each agent's entries on a page of its own, so a commit
// of calls from 50 agents wrote 50 index pages per filter to the WAL: two thirds of an allowed call's
// pages. The filter tables are filled by the commit whose appends cross a multiple of
// AUDIT_FILTER_BATCH, a thousand events at once, sorted, each agent's page written once. Events after
// the mark (fewer than two batches) are read from audit_events itself, so every query sees every event.
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { AuditEventsTable, Database, TxContext } from '../db/schema.js';
import type { AuditFilter } from '../types.js';
import { int } from './rows.js';

/** Events per fill of the filter tables; also about the most a query reads past the mark. */
export const AUDIT_FILTER_BATCH = 1024;
// A store far behind (a crash between fills cannot cause it, but a bulk import could) catches up this much per commit.
const MOST_PER_FILL = 16 * AUDIT_FILTER_BATCH;

/** Whether this transaction's appends crossed a multiple of the batch, so its commit fills the tables. */
export function filterFillDue(ctx: TxContext): boolean {
  const first = ctx.memo.auditFirstAppended;
  const last = ctx.memo.auditHead?.seq;
  if (first === null || last === undefined) return false;
  return Math.floor((first - 1) / AUDIT_FILTER_BATCH) !== Math.floor(last / AUDIT_FILTER_BATCH);
}

async function readMark({ db }: TxContext): Promise<number> {
  const row = await db.selectFrom('audit_filter_mark').select('seq').where('id', '=', 1).executeTakeFirst();
  return row === undefined ? 0 : int(row.seq);
}

/** Copies every event after the mark, up to `through`, into the filter tables and moves the mark. */
export async function fillFilterTables(ctx: TxContext, through: number): Promise<void> {
  const { db } = ctx;
  const mark = await readMark(ctx);
  const upTo = Math.min(through, mark + MOST_PER_FILL);
  if (upTo <= mark) return;
  const batch = db.selectFrom('audit_events').where('seq', '>', mark).where('seq', '<=', upTo);
  await db
    .insertInto('audit_by_actor')
    .columns(['actor', 'seq'])
    .expression(batch.select(['actor', 'seq']).orderBy('actor').orderBy('seq'))
    .execute();
  await db
    .insertInto('audit_by_subject')
    .columns(['subject', 'seq'])
    .expression(
      batch
        .select(['subject', 'seq'])
        .where('subject', 'is not', null)
        .$narrowType<{ subject: string }>()
        .orderBy('subject')
        .orderBy('seq'),
    )
    .execute();
  await db.updateTable('audit_filter_mark').set({ seq: upTo }).where('id', '=', 1).execute();
}

/** Fills the filter tables when this transaction's appends made them due; runs just before its commit. */
export async function fillFilterTablesIfDue(ctx: TxContext): Promise<void> {
  const head = ctx.memo.auditHead;
  if (head !== null && filterFillDue(ctx)) await fillFilterTables(ctx, head.seq);
}

/** Drops the filter rows of events retention removed (up to `seq`); the tables' triggers refuse any other. */
export async function removeFilterRows({ db }: TxContext, seq: number): Promise<void> {
  await db.deleteFrom('audit_by_actor').where('seq', '<=', seq).execute();
  await db.deleteFrom('audit_by_subject').where('seq', '<=', seq).execute();
}

type Events = Database['audit_events'];
type Query = SelectQueryBuilder<Database, 'audit_events' | 'audit_by_actor' | 'audit_by_subject', Events>;

/** What one query asks for: its filter, its order, the seq its cursor stands at, and how many rows. */
export interface Slice {
  filter: AuditFilter;
  newestFirst: boolean;
  afterSeq: number | undefined;
  count: number;
}

function conditions(slice: Slice, seq: Expression<number>): Expression<SqlBool>[] {
  const { filter, newestFirst, afterSeq } = slice;
  const column = (name: keyof AuditEventsTable) => sql.ref(`audit_events.${name}`);
  const all: Expression<SqlBool>[] = [];
  if (filter.kind !== undefined) all.push(sql<SqlBool>`${column('kind')} = ${filter.kind}`);
  if (filter.actor !== undefined) all.push(sql<SqlBool>`${column('actor')} = ${filter.actor}`);
  if (filter.subject !== undefined) all.push(sql<SqlBool>`${column('subject')} = ${filter.subject}`);
  if (filter.fromSeq !== undefined) all.push(sql<SqlBool>`${seq} >= ${filter.fromSeq}`);
  if (filter.since !== undefined) all.push(sql<SqlBool>`${column('at')} >= ${filter.since}`);
  if (filter.until !== undefined) all.push(sql<SqlBool>`${column('at')} < ${filter.until}`);
  if (afterSeq !== undefined)
    all.push(newestFirst ? sql<SqlBool>`${seq} < ${afterSeq}` : sql<SqlBool>`${seq} > ${afterSeq}`);
  return all;
}

function finish(query: Query, slice: Slice, seq: Expression<number>, extra: Expression<SqlBool>[]) {
  let built = query;
  for (const condition of [...conditions(slice, seq), ...extra]) built = built.where(condition);
  return built
    .orderBy(seq, slice.newestFirst ? 'desc' : 'asc')
    .limit(slice.count)
    .execute();
}

/** Events matching the filter from audit_events alone: any filter, or the events after the mark. */
export function scanEvents(ctx: TxContext, slice: Slice, afterMark?: number): Promise<Events[]> {
  const seq = sql.ref<number>('audit_events.seq');
  const query = ctx.db.selectFrom('audit_events').selectAll('audit_events') as unknown as Query;
  return finish(query, slice, seq, afterMark === undefined ? [] : [sql<SqlBool>`${seq} > ${afterMark}`]);
}

function indexedEvents(ctx: TxContext, slice: Slice, mark: number): Promise<Events[]> {
  const { filter } = slice;
  const byActor = filter.actor !== undefined;
  const table = byActor ? 'audit_by_actor' : 'audit_by_subject';
  const seq = sql.ref<number>(`${table}.seq`);
  const key = byActor
    ? sql<SqlBool>`${sql.ref('audit_by_actor.actor')} = ${filter.actor}`
    : sql<SqlBool>`${sql.ref('audit_by_subject.subject')} = ${filter.subject}`;
  const query = ctx.db
    .selectFrom(table)
    .innerJoin('audit_events', 'audit_events.seq', `${table}.seq`)
    .selectAll('audit_events') as unknown as Query;
  return finish(query, slice, seq, [key, sql<SqlBool>`${seq} <= ${mark}`]);
}

/**
 * Events by actor or subject: the filter table up to the mark and audit_events after it, the newer
 * part first when newest first. The mark read first splits the seqs in two, so a fill that commits
 * between the reads (Postgres reads outside a transaction) neither hides an event nor shows one twice.
 */
export async function queryThroughFilterTables(ctx: TxContext, slice: Slice): Promise<Events[]> {
  const mark = await readMark(ctx);
  const parts = [
    (count: number) => indexedEvents(ctx, { ...slice, count }, mark),
    (count: number) => scanEvents(ctx, { ...slice, count }, mark),
  ];
  if (slice.newestFirst) parts.reverse();
  const rows: Events[] = [];
  for (const part of parts) {
    const wanted = slice.count - rows.length;
    if (wanted <= 0) break;
    rows.push(...(await part(wanted)));
  }
  return rows;
}
