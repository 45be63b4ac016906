import type { Selectable } from 'kysely';
import type { TxContext, WebhooksTable } from '../db/schema.js';
import { affectedRows, preparedQuery, runPrepared } from '../prepared.js';
import type { OutboxEvent, WebhookRecord } from '../types.js';
import { changed, int, pageLimit, parseJson } from './rows.js';

function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    events: parseJson<string[]>(row.events),
    description: row.description,
    enabled: Number(row.enabled) === 1,
    secret: row.secret,
    createdBy: row.created_by,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

function columnsOf(webhook: WebhookRecord) {
  return {
    url: webhook.url,
    events: JSON.stringify([...new Set(webhook.events)]),
    description: webhook.description,
    enabled: webhook.enabled ? 1 : 0,
    secret: webhook.secret,
    updated_at: webhook.updatedAt,
  };
}

/** Subscriptions exist only while the webhook is enabled, so "does anyone want this?" reads one table. */
async function writeSubscriptions({ db, memo }: TxContext, webhook: WebhookRecord): Promise<void> {
  memo.webhookEvents = null;
  await db.deleteFrom('webhook_events').where('webhook_id', '=', webhook.id).execute();
  const types = webhook.enabled ? [...new Set(webhook.events)] : [];
  if (types.length === 0) return;
  await db
    .insertInto('webhook_events')
    .values(types.map((event_type) => ({ webhook_id: webhook.id, event_type })))
    .execute();
}

export async function insertWebhook(ctx: TxContext, webhook: WebhookRecord): Promise<void> {
  await ctx.db
    .insertInto('webhooks')
    .values({
      id: webhook.id,
      created_by: webhook.createdBy,
      created_at: webhook.createdAt,
      ...columnsOf(webhook),
    })
    .execute();
  await writeSubscriptions(ctx, webhook);
}

export async function getWebhook({ db }: TxContext, id: string): Promise<WebhookRecord | null> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toWebhook(row) : null;
}

export async function listWebhooks({ db }: TxContext): Promise<WebhookRecord[]> {
  const rows = await db.selectFrom('webhooks').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toWebhook);
}

export async function listWebhooksFor({ db }: TxContext, eventType: string): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('enabled', '=', 1)
    .where('id', 'in', (eb) =>
      eb.selectFrom('webhook_events').select('webhook_id').where('event_type', '=', eventType),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toWebhook);
}

export async function updateWebhook(ctx: TxContext, webhook: WebhookRecord): Promise<boolean> {
  const result = await ctx.db
    .updateTable('webhooks')
    .set(columnsOf(webhook))
    .where('id', '=', webhook.id)
    .executeTakeFirst();
  if (changed(result.numUpdatedRows) !== 1) return false;
  await writeSubscriptions(ctx, webhook);
  return true;
}

export async function deleteWebhook({ db, memo }: TxContext, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  if (changed(result.numDeletedRows) !== 1) return false;
  memo.webhookEvents = null;
  await db.deleteFrom('webhook_events').where('webhook_id', '=', id).execute();
  await db
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) =>
      eb.selectFrom('webhook_deliveries').select('webhook_deliveries.id').where('webhook_id', '=', id),
    )
    .execute();
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  return true;
}

// INSERT … SELECT … WHERE EXISTS: one round trip, and no row when nobody subscribes.
const insertIfSubscribed = preparedQuery(
  'outbox-insert-if-subscribed',
  (db, event: OutboxEvent) =>
    db
      .insertInto('outbox')
      .columns(['id', 'type', 'payload', 'created_at'])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.cast<string>(eb.val(event.id), 'text').as('id'),
            eb.cast<string>(eb.val(event.type), 'text').as('type'),
            eb.cast<string>(eb.val(event.payload), 'text').as('payload'),
            eb.cast<number>(eb.val(event.createdAt), 'bigint').as('created_at'),
          ])
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('webhook_events')
                .select(eb.lit(1).as('one'))
                .where('webhook_events.event_type', '=', event.type),
            ),
          ),
      ),
  (event) => [event.id, event.type, event.payload, event.createdAt, event.type],
);

/**
 * False when no webhook subscribes to `eventType`. A sole writer reads the subscribed types once and
 * keeps them until a webhook changes; elsewhere this is true and the outbox insert checks.
 */
export async function webhooksMayHear(ctx: TxContext, eventType: string): Promise<boolean> {
  const { memo } = ctx;
  if (!memo.soleWriter) return true;
  if (memo.webhookEvents === null) {
    const rows = await ctx.db.selectFrom('webhook_events').select('event_type').distinct().execute();
    memo.webhookEvents = new Set(rows.map((row) => row.event_type));
  }
  return memo.webhookEvents.has(eventType);
}

export async function insertOutboxEvent(ctx: TxContext, event: OutboxEvent): Promise<boolean> {
  if (!(await webhooksMayHear(ctx, event.type))) return false;
  return affectedRows(await runPrepared(ctx, insertIfSubscribed, event)) === 1;
}

export async function claimOutboxEvents(ctx: TxContext, limit: number): Promise<OutboxEvent[]> {
  const rows = await ctx.db
    .selectFrom('outbox')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(pageLimit(limit))
    .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .execute();
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    payload: row.payload,
    createdAt: int(row.created_at),
  }));
}

export async function deleteOutboxEvents({ db }: TxContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('outbox').where('id', 'in', ids).execute();
}
