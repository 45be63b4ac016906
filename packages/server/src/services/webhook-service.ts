import { GatehouseError, revealText } from 'gatehouse-hitl-core';
import type { WebhookEventType } from 'gatehouse-hitl-protocol';
import type {
  Page,
  StoreTx,
  WebhookAttemptRecord,
  WebhookDeliveriesRepo,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookRecord,
  WebhooksRepo,
} from 'gatehouse-hitl-store';
import { sha256Hex } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { newDelivery } from '../webhooks/new-delivery.js';
import { generateWebhookSecret } from '../webhooks/signature.js';
import { checkWebhookUrl } from '../webhooks/url.js';
import { createWebhookWorker } from '../webhooks/worker.js';
import { commit } from './commit.js';
import { invalidInput } from './gates/gate-input.js';

/** A webhook as the API shows it: never its secret. */
export type WebhookView = Omit<WebhookRecord, 'secret'>;

/** A delivery as the API shows it (the body is on the delivery's own page). */
export type DeliveryView = Omit<WebhookDeliveryRecord, 'payload'>;

export type AttemptView = Omit<WebhookAttemptRecord, 'deliveryId'>;

export interface WebhookInput {
  url: string;
  events: WebhookEventType[];
  description?: string | undefined;
  enabled?: boolean | undefined;
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: WebhookEventType[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  /** A new secret replaces the old one at once and is shown in this answer only. */
  rotateSecret?: boolean | undefined;
}

/** One delivery with every attempt and the event it carries. */
export interface DeliveryDetail {
  delivery: DeliveryView;
  attempts: AttemptView[];
  event: unknown;
}

/** Webhooks (admin only): registration, the delivery log, redelivery; delivery itself runs in the worker. */
export interface WebhookService {
  create(userId: string, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }>;
  list(): Promise<WebhookView[]>;
  get(webhookId: string): Promise<WebhookView>;
  update(
    userId: string,
    webhookId: string,
    changes: WebhookChanges,
  ): Promise<{ webhook: WebhookView; secret: string | null }>;
  remove(userId: string, webhookId: string): Promise<WebhookView>;
  deliveries(
    webhookId: string,
    filter: { status?: WebhookDeliveryStatus | undefined; limit?: number; cursor?: string | undefined },
  ): Promise<Page<DeliveryView>>;
  delivery(deliveryId: string): Promise<DeliveryDetail>;
  /** Sends the delivery's event again as a new delivery with fresh attempts. */
  redeliver(userId: string, deliveryId: string): Promise<DeliveryView>;
  /** Starts the delivery worker. */
  start(): void;
  close(): Promise<void>;
}

function viewOf(webhook: WebhookRecord): WebhookView {
  const { secret: _secret, ...view } = webhook;
  return view;
}

function deliveryView(delivery: WebhookDeliveryRecord): DeliveryView {
  const { payload: _payload, ...view } = delivery;
  return view;
}

function notFound(webhookId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no webhook ${webhookId}`, { webhookId });
}

async function loadWebhook(tx: WebhooksRepo, webhookId: string): Promise<WebhookRecord> {
  const webhook = await tx.getWebhook(webhookId);
  if (webhook === null) throw notFound(webhookId);
  return webhook;
}

async function loadDelivery(tx: WebhookDeliveriesRepo, deliveryId: string): Promise<WebhookDeliveryRecord> {
  const delivery = await tx.getWebhookDelivery(deliveryId);
  if (delivery === null) throw new GatehouseError('NOT_FOUND', `no delivery ${deliveryId}`, { deliveryId });
  return delivery;
}

function cleanDescription(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  const clean = revealText(text, { multiline: true }).replace(/\s+/g, ' ').trim();
  return clean === '' ? null : clean;
}

/** Webhook URLs often carry credentials of their own: the audit keeps the origin and a hash. */
function auditedUrl(url: string): { urlOrigin: string; urlHash: string } {
  return { urlOrigin: new URL(url).origin, urlHash: sha256Hex(url).slice(0, 16) };
}

function applyChanges(webhook: WebhookRecord, changes: WebhookChanges, now: number): WebhookRecord {
  return {
    ...webhook,
    ...(changes.url === undefined ? {} : { url: checkWebhookUrl(changes.url) }),
    ...(changes.events === undefined ? {} : { events: [...new Set(changes.events)] }),
    ...(changes.description === undefined ? {} : { description: cleanDescription(changes.description) }),
    ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
    ...(changes.rotateSecret === true ? { secret: generateWebhookSecret() } : {}),
    updatedAt: now,
  };
}

function changedFields(changes: WebhookChanges): string[] {
  const fields = (['url', 'events', 'description', 'enabled'] as const).filter(
    (f) => changes[f] !== undefined,
  );
  return changes.rotateSecret === true ? [...fields, 'secret'] : fields;
}

/** Creates the webhook service and its delivery worker. */
export function createWebhookService(ctx: AppContext): WebhookService {
  const worker = createWebhookWorker(ctx);
  const read = <T>(work: (tx: StoreTx) => Promise<T>) => ctx.store.read(work);

  return {
    async create(userId, input) {
      const url = checkWebhookUrl(input.url);
      const secret = generateWebhookSecret();
      return commit(ctx, async ({ tx, audit }) => {
        const webhook: WebhookRecord = {
          id: ctx.ids.next('wh'),
          url,
          events: [...new Set(input.events)],
          description: cleanDescription(input.description),
          enabled: input.enabled ?? true,
          secret,
          createdBy: `user:${userId}`,
          createdAt: tx.now,
          updatedAt: tx.now,
        };
        await tx.insertWebhook(webhook);
        await audit({
          kind: 'webhook.created',
          actor: `user:${userId}`,
          subject: webhook.id,
          data: {
            ...auditedUrl(url),
            events: webhook.events,
            description: webhook.description,
            enabled: webhook.enabled,
          },
        });
        return { webhook: viewOf(webhook), secret };
      });
    },

    async list() {
      return (await read((tx) => tx.listWebhooks())).map(viewOf);
    },

    async get(webhookId) {
      return viewOf(await read((tx) => loadWebhook(tx, webhookId)));
    },

    async update(userId, webhookId, changes) {
      const fields = changedFields(changes);
      if (fields.length === 0) {
        throw invalidInput('body', 'give at least one of url, events, description, enabled, rotateSecret');
      }
      const result = await commit(ctx, async ({ tx, audit }) => {
        const next = applyChanges(await loadWebhook(tx, webhookId), changes, tx.now);
        if (!(await tx.updateWebhook(next))) throw notFound(webhookId);
        await audit({
          kind: 'webhook.updated',
          actor: `user:${userId}`,
          subject: webhookId,
          data: { changed: fields, ...auditedUrl(next.url), events: next.events, enabled: next.enabled },
        });
        return { webhook: viewOf(next), secret: changes.rotateSecret === true ? next.secret : null };
      });
      return result;
    },

    async remove(userId, webhookId) {
      return commit(ctx, async ({ tx, audit }) => {
        const webhook = await loadWebhook(tx, webhookId);
        await tx.deleteWebhook(webhookId);
        await audit({
          kind: 'webhook.deleted',
          actor: `user:${userId}`,
          subject: webhookId,
          data: { ...auditedUrl(webhook.url), events: webhook.events },
        });
        return viewOf(webhook);
      });
    },

    async deliveries(webhookId, filter) {
      const page = await read(async (tx) => {
        await loadWebhook(tx, webhookId);
        return tx.listWebhookDeliveries({
          webhookId,
          ...(filter.status === undefined ? {} : { status: filter.status }),
          ...(filter.limit === undefined ? {} : { limit: filter.limit }),
          ...(filter.cursor === undefined ? {} : { cursor: filter.cursor }),
        });
      });
      return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
    },

    async delivery(deliveryId) {
      return read(async (tx) => {
        const delivery = await loadDelivery(tx, deliveryId);
        const attempts = await tx.listWebhookAttempts(deliveryId);
        return {
          delivery: deliveryView(delivery),
          attempts: attempts.map(({ deliveryId: _id, ...attempt }) => attempt),
          event: JSON.parse(delivery.payload) as unknown,
        };
      });
    },

    async redeliver(userId, deliveryId) {
      const delivery = await commit(ctx, async ({ tx, audit }) => {
        const original = await loadDelivery(tx, deliveryId);
        const again = newDelivery(ctx.ids, {
          webhookId: original.webhookId,
          eventId: original.eventId,
          eventType: original.eventType,
          payload: original.payload,
          now: tx.now,
          redeliveryOf: original.id,
        });
        await tx.insertWebhookDelivery(again);
        await audit({
          kind: 'webhook.redelivered',
          actor: `user:${userId}`,
          subject: original.webhookId,
          data: {
            deliveryId: again.id,
            redeliveryOf: original.id,
            eventId: original.eventId,
            eventType: original.eventType,
          },
        });
        return again;
      });
      worker.wake();
      return deliveryView(delivery);
    },

    start() {
      worker.start();
    },

    close() {
      return worker.stop();
    },
  };
}
