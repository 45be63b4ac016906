import type { Selectable } from 'kysely';
import type { TxContext, WebhookDeliveriesTable } from '../db/schema.js';
import type {
  ClaimedWebhookDelivery,
  Page,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
} from '../types.js';
import { changed, decodeCursor, int, intOrNull, pageLimit, toPage } from './rows.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** What the attempt of a node that stopped before it finished is recorded as. */
export const LEASE_EXPIRED =
  'no result: the node delivering it stopped before the attempt finished (its claim expired)';

function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
    status: row.status as WebhookDeliveryStatus,
    attempts: int(row.attempts),
    nextAttemptAt: intOrNull(row.next_attempt_at),
    claimedUntil: intOrNull(row.claimed_until),
    lastAttemptAt: intOrNull(row.last_attempt_at),
    lastStatusCode: intOrNull(row.last_status_code),
    lastError: row.last_error,
    redeliveryOf: row.redelivery_of,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
}

export async function insertWebhookDelivery(
  { db }: TxContext,
  delivery: WebhookDeliveryRecord,
): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      webhook_id: delivery.webhookId,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      payload: delivery.payload,
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt_at: delivery.nextAttemptAt,
      claim_token: null,
      claimed_at: null,
      claimed_until: null,
      last_attempt_at: delivery.lastAttemptAt,
      last_status_code: delivery.lastStatusCode,
      last_error: delivery.lastError,
      redelivery_of: delivery.redeliveryOf,
      created_at: delivery.createdAt,
      updated_at: delivery.updatedAt,
    })
    .execute();
}

export async function getWebhookDelivery(
  { db }: TxContext,
  id: string,
): Promise<WebhookDeliveryRecord | null> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDelivery(row) : null;
}

export async function listWebhookDeliveries(
  { db }: TxContext,
  filter: WebhookDeliveryFilter,
): Promise<Page<WebhookDeliveryRecord>> {
  const limit = pageLimit(filter.limit);
  let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', filter.webhookId);
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
  return toPage(rows, limit, toDelivery, (row) => [int(row.created_at), row.id]);
}

export async function listWebhookAttempts(
  { db }: TxContext,
  deliveryId: string,
): Promise<WebhookAttemptRecord[]> {
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    deliveryId: row.delivery_id,
    attempt: int(row.attempt),
    startedAt: int(row.started_at),
    durationMs: intOrNull(row.duration_ms),
    statusCode: intOrNull(row.status_code),
    responseExcerpt: row.response_excerpt,
    error: row.error,
  }));
}

export async function hasWebhookWork({ db }: TxContext, dueBy: number): Promise<boolean> {
  const queued = await db.selectFrom('outbox').select('id').limit(1).executeTakeFirst();
  if (queued !== undefined) return true;
  const due = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', dueBy)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', dueBy)]))
    .limit(1)
    .executeTakeFirst();
  return due !== undefined;
}

async function insertAttempt({ db }: TxContext, attempt: WebhookAttemptRecord): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: attempt.deliveryId,
      attempt: attempt.attempt,
      started_at: attempt.startedAt,
      duration_ms: attempt.durationMs === null ? null : Math.round(attempt.durationMs),
      status_code: attempt.statusCode,
      response_excerpt: attempt.responseExcerpt,
      error: attempt.error,
    })
    .execute();
}

/** Records the lost attempt of an expired claim; returns true when it was the last one allowed. */
async function recordLostAttempt(ctx: TxContext, row: DeliveryRow, maxAttempts: number): Promise<boolean> {
  const startedAt = intOrNull(row.claimed_at) ?? ctx.now;
  await insertAttempt(ctx, {
    deliveryId: row.id,
    attempt: int(row.attempts),
    startedAt,
    durationMs: null,
    statusCode: null,
    responseExcerpt: null,
    error: LEASE_EXPIRED,
  });
  const exhausted = int(row.attempts) >= maxAttempts;
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({
      ...(exhausted ? { status: 'dead', next_attempt_at: null } : {}),
      claim_token: null,
      claimed_at: null,
      claimed_until: null,
      last_attempt_at: startedAt,
      last_status_code: null,
      last_error: LEASE_EXPIRED,
      updated_at: ctx.now,
    })
    .where('id', '=', row.id)
    .execute();
  return exhausted;
}

export async function claimWebhookDeliveries(
  ctx: TxContext,
  options: { limit: number; leaseMs: number; token: string; maxAttempts: number },
): Promise<ClaimedWebhookDelivery[]> {
  const { now, db } = ctx;
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(pageLimit(options.limit))
    .$if(ctx.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .execute();
  const claimable: DeliveryRow[] = [];
  for (const row of rows) {
    const lost = row.claim_token !== null;
    if (!lost || !(await recordLostAttempt(ctx, row, options.maxAttempts))) claimable.push(row);
  }
  if (claimable.length === 0) return [];
  const claimedUntil = now + options.leaseMs;
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      claim_token: options.token,
      claimed_at: now,
      claimed_until: claimedUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where(
      'id',
      'in',
      claimable.map((row) => row.id),
    )
    .execute();
  return claimable.map((row) => ({
    ...toDelivery(row),
    attempts: int(row.attempts) + 1,
    claimedUntil,
    updatedAt: now,
    claimToken: options.token,
  }));
}

export async function finishWebhookAttempt(
  ctx: TxContext,
  input: { token: string; attempt: WebhookAttemptRecord; outcome: WebhookAttemptOutcome },
): Promise<boolean> {
  const { attempt, outcome } = input;
  const result = await ctx.db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      claim_token: null,
      claimed_at: null,
      claimed_until: null,
      last_attempt_at: attempt.startedAt,
      last_status_code: attempt.statusCode,
      last_error: attempt.error,
      updated_at: ctx.now,
    })
    .where('id', '=', attempt.deliveryId)
    .where('claim_token', '=', input.token)
    .executeTakeFirst();
  const owned = changed(result.numUpdatedRows) === 1;
  // A claim lost to an expired lease still made a real request: keep it in the log while the delivery exists.
  if (owned || (await getWebhookDelivery(ctx, attempt.deliveryId)) !== null)
    await insertAttempt(ctx, attempt);
  return owned;
}

export async function releaseWebhookDelivery(
  ctx: TxContext,
  deliveryId: string,
  token: string,
): Promise<boolean> {
  const result = await ctx.db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      claim_token: null,
      claimed_at: null,
      claimed_until: null,
      attempts: eb('attempts', '-', 1),
      next_attempt_at: ctx.now,
      updated_at: ctx.now,
    }))
    .where('id', '=', deliveryId)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) === 1;
}
