import { expect, it } from 'vitest';
import { LEASE_EXPIRED } from '../repos/webhook-deliveries.js';
import type { OutboxEvent, Store, WebhookDeliveryRecord, WebhookRecord } from '../types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

function makeWebhook(overrides: Partial<WebhookRecord> = {}): WebhookRecord {
  return {
    id: uid('wh'),
    url: 'https://hooks.example.com/gatehouse?team=a',
    events: ['gate.opened', 'gate.decided'],
    description: 'reviewers',
    enabled: true,
    secret: `whsec_${uid('s')}`,
    createdBy: 'user:user_admin',
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

function makeEvent(type: string, overrides: Partial<OutboxEvent> = {}): OutboxEvent {
  const id = uid('evt');
  return { id, type, payload: JSON.stringify({ id, type, emoji: '🚀' }), createdAt: 2_000, ...overrides };
}

function makeDelivery(
  webhookId: string,
  overrides: Partial<WebhookDeliveryRecord> = {},
): WebhookDeliveryRecord {
  const eventId = uid('evt');
  return {
    id: uid('whd'),
    webhookId,
    eventId,
    eventType: 'gate.opened',
    payload: JSON.stringify({ id: eventId }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    claimedUntil: null,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    redeliveryOf: null,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

const claim = (store: Store, token: string, options: { leaseMs?: number; maxAttempts?: number } = {}) =>
  store.transaction((tx) =>
    tx.claimWebhookDeliveries({
      limit: 10,
      leaseMs: options.leaseMs ?? 60_000,
      token,
      maxAttempts: options.maxAttempts ?? 8,
    }),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Webhooks, the outbox written with the change it announces, and claimed deliveries with leases. */
export function describeWebhookContract(ctx: ContractContext): void {
  it('stores, updates and deletes webhooks with their subscriptions, deliveries and attempts', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const other = makeWebhook({ events: ['run.paused'], createdAt: 2_000 });
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      await tx.insertWebhook(other);
      await tx.insertWebhookDelivery(makeDelivery(hook.id));
    });
    expect(await store.read((tx) => tx.getWebhook(hook.id))).toEqual(hook);
    expect((await store.read((tx) => tx.listWebhooks())).map((w) => w.id)).toEqual([hook.id, other.id]);
    expect((await store.read((tx) => tx.listWebhooksFor('gate.decided'))).map((w) => w.id)).toEqual([
      hook.id,
    ]);

    const changed = { ...hook, events: ['run.paused'], enabled: false, updatedAt: 3_000 };
    expect(await store.transaction((tx) => tx.updateWebhook(changed))).toBe(true);
    expect(await store.read((tx) => tx.getWebhook(hook.id))).toEqual(changed);
    expect(await store.read((tx) => tx.listWebhooksFor('gate.decided'))).toEqual([]);
    // Disabled webhooks are nobody's subscriber.
    expect((await store.read((tx) => tx.listWebhooksFor('run.paused'))).map((w) => w.id)).toEqual([other.id]);

    const [delivery] = await claim(store, 'token-a');
    await store.transaction((tx) =>
      tx.finishWebhookAttempt({
        token: 'token-a',
        attempt: { ...attemptOf(delivery), statusCode: 500 },
        outcome: { status: 'dead' },
      }),
    );
    expect(await store.transaction((tx) => tx.deleteWebhook(hook.id))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteWebhook(hook.id))).toBe(false);
    expect(await store.read((tx) => tx.getWebhook(hook.id))).toBeNull();
    expect(await store.read((tx) => tx.getWebhookDelivery(delivery?.id ?? ''))).toBeNull();
    expect(await store.read((tx) => tx.listWebhookAttempts(delivery?.id ?? ''))).toEqual([]);
    expect(await store.transaction((tx) => tx.updateWebhook(changed))).toBe(false);
  });

  it('follows every change of subscriptions when it tells whether a webhook may hear an event', async () => {
    const { store } = ctx.harness();
    const queued = (type: string) => store.transaction((tx) => tx.insertOutboxEvent(makeEvent(type)));
    const mayHear = (type: string) => store.transaction((tx) => tx.webhooksMayHear(type));
    expect(await queued('gate.opened')).toBe(false);
    const hook = makeWebhook({ events: ['gate.opened'] });
    await store.transaction((tx) => tx.insertWebhook(hook));
    expect(await mayHear('gate.opened')).toBe(true);
    expect(await queued('gate.opened')).toBe(true);
    expect(await queued('gate.decided')).toBe(false);

    await store.transaction((tx) => tx.updateWebhook({ ...hook, enabled: false }));
    expect(await queued('gate.opened')).toBe(false);
    await store.transaction((tx) => tx.updateWebhook({ ...hook, events: ['gate.decided'] }));
    expect(await queued('gate.decided')).toBe(true);
    expect(await queued('gate.opened')).toBe(false);

    // A unit that removes the webhook and then fails shares its batch with one that queues an event.
    const [failed, other] = await Promise.allSettled([
      store.transaction(async (tx) => {
        await tx.deleteWebhook(hook.id);
        expect(await tx.webhooksMayHear('gate.decided')).toBe(false);
        throw new Error('the change failed');
      }),
      store.transaction((tx) => tx.insertOutboxEvent(makeEvent('gate.decided'))),
    ]);
    expect(failed.status).toBe('rejected');
    expect(other).toEqual({ status: 'fulfilled', value: true });
    expect(await queued('gate.decided')).toBe(true);

    await store.transaction((tx) => tx.deleteWebhook(hook.id));
    expect(await queued('gate.decided')).toBe(false);
    if (store.dialect === 'sqlite') expect(await mayHear('gate.decided')).toBe(false);
  });

  it('writes an outbox event only when an enabled webhook subscribes, and only if its unit commits', async () => {
    const { store } = ctx.harness();
    const nobody = makeEvent('gate.opened');
    expect(await store.transaction((tx) => tx.insertOutboxEvent(nobody))).toBe(false);
    await store.transaction((tx) => tx.insertWebhook(makeWebhook({ events: ['gate.opened'] })));
    await store.transaction((tx) =>
      tx.insertWebhook(makeWebhook({ events: ['run.paused'], enabled: false })),
    );

    const wanted = makeEvent('gate.opened', { createdAt: 1 });
    const unwanted = makeEvent('run.paused');
    const rolledBack = makeEvent('gate.opened');
    const results = await Promise.allSettled([
      store.transaction(async (tx) => [
        await tx.insertOutboxEvent(wanted),
        await tx.insertOutboxEvent(unwanted),
      ]),
      store.transaction(async (tx) => {
        await tx.insertOutboxEvent(rolledBack);
        throw new Error('the change failed');
      }),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: [true, false] });
    expect(results[1]?.status).toBe('rejected');
    expect(await store.read((tx) => tx.hasWebhookWork(0))).toBe(true);

    const later = makeEvent('gate.opened', { createdAt: 5 });
    await store.transaction((tx) => tx.insertOutboxEvent(later));
    const claimed = await store.transaction(async (tx) => {
      const events = await tx.claimOutboxEvents(10);
      await tx.deleteOutboxEvents(events.map((event) => event.id));
      return events;
    });
    expect(claimed).toEqual([wanted, later]);
    expect(await store.transaction((tx) => tx.claimOutboxEvents(10))).toEqual([]);
    expect(await store.read((tx) => tx.hasWebhookWork(Number.MAX_SAFE_INTEGER))).toBe(false);
  });

  it('claims a due delivery once per lease and counts the attempt', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const due = makeDelivery(hook.id, { nextAttemptAt: 0 });
    const later = makeDelivery(hook.id, { nextAttemptAt: Date.now() + 3_600_000 });
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      await tx.insertWebhookDelivery(due);
      await tx.insertWebhookDelivery(later);
    });
    const [first, second] = await Promise.all([claim(store, 'token-a'), claim(store, 'token-b')]);
    const claimed = [...(first ?? []), ...(second ?? [])];
    expect(claimed.map((d) => [d.id, d.attempts])).toEqual([[due.id, 1]]);
    expect(claimed[0]?.claimedUntil).toBeGreaterThan(Date.now() - 1_000);
    expect(await store.read((tx) => tx.hasWebhookWork(Date.now()))).toBe(false);
    const stored = await store.read((tx) => tx.getWebhookDelivery(due.id));
    expect(stored).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('moves a delivery on by its outcome and keeps every attempt', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const delivery = makeDelivery(hook.id);
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      await tx.insertWebhookDelivery(delivery);
    });
    const [first] = await claim(store, 'token-a');
    const failed = { ...attemptOf(first), statusCode: 500, responseExcerpt: 'boom', durationMs: 12 };
    const retryAt = Date.now() - 1;
    expect(
      await store.transaction((tx) =>
        tx.finishWebhookAttempt({
          token: 'token-a',
          attempt: failed,
          outcome: { status: 'pending', nextAttemptAt: retryAt },
        }),
      ),
    ).toBe(true);
    expect(await store.read((tx) => tx.getWebhookDelivery(delivery.id))).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: retryAt,
      claimedUntil: null,
      lastStatusCode: 500,
    });
    const [second] = await claim(store, 'token-b');
    expect(second?.attempts).toBe(2);
    // The first token no longer holds the delivery: its late result cannot move it.
    const stale = { ...attemptOf(second), statusCode: 200 };
    expect(
      await store.transaction((tx) =>
        tx.finishWebhookAttempt({ token: 'token-a', attempt: stale, outcome: { status: 'succeeded' } }),
      ),
    ).toBe(false);
    const ok = { ...attemptOf(second), statusCode: 204, durationMs: 3 };
    await store.transaction((tx) =>
      tx.finishWebhookAttempt({ token: 'token-b', attempt: ok, outcome: { status: 'succeeded' } }),
    );
    expect(await store.read((tx) => tx.getWebhookDelivery(delivery.id))).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      nextAttemptAt: null,
      lastStatusCode: 204,
      lastError: null,
    });
    const attempts = await store.read((tx) => tx.listWebhookAttempts(delivery.id));
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
      [2, 204],
    ]);
    expect(attempts[0]).toEqual(failed);
    expect(await claim(store, 'token-c')).toEqual([]);
  });

  it('hands a delivery whose claim expired to the next claimant, recording the lost attempt', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const retried = makeDelivery(hook.id);
    const exhausted = makeDelivery(hook.id, { attempts: 2 });
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      await tx.insertWebhookDelivery(retried);
      await tx.insertWebhookDelivery(exhausted);
    });
    expect(await claim(store, 'node-a', { leaseMs: 1 })).toHaveLength(2);
    await sleep(20);
    const reclaimed = await claim(store, 'node-b', { maxAttempts: 3 });
    expect(reclaimed.map((d) => [d.id, d.attempts])).toEqual([[retried.id, 2]]);
    const lost = await store.read((tx) => tx.listWebhookAttempts(retried.id));
    expect(lost).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: LEASE_EXPIRED })]);
    expect(await store.read((tx) => tx.getWebhookDelivery(exhausted.id))).toMatchObject({
      status: 'dead',
      attempts: 3,
      lastError: LEASE_EXPIRED,
      nextAttemptAt: null,
    });
  });

  it('gives a claim back without counting it', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const delivery = makeDelivery(hook.id);
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      await tx.insertWebhookDelivery(delivery);
    });
    await claim(store, 'token-a');
    expect(await store.transaction((tx) => tx.releaseWebhookDelivery(delivery.id, 'token-b'))).toBe(false);
    expect(await store.transaction((tx) => tx.releaseWebhookDelivery(delivery.id, 'token-a'))).toBe(true);
    const [again] = await claim(store, 'token-c');
    expect(again).toMatchObject({ id: delivery.id, attempts: 1 });
    expect(await store.read((tx) => tx.listWebhookAttempts(delivery.id))).toEqual([]);
  });

  it('lists deliveries newest first, by status, page by page', async () => {
    const { store } = ctx.harness();
    const hook = makeWebhook();
    const other = makeWebhook();
    const deliveries = Array.from({ length: 5 }, (_, i) =>
      makeDelivery(hook.id, {
        id: `whd_${i}`,
        createdAt: 1_000 + Math.floor(i / 2),
        status: i % 2 === 0 ? 'dead' : 'succeeded',
        nextAttemptAt: null,
      }),
    );
    await store.transaction(async (tx) => {
      await tx.insertWebhook(hook);
      for (const delivery of deliveries) await tx.insertWebhookDelivery(delivery);
      await tx.insertWebhookDelivery(makeDelivery(other.id));
    });
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await store.read((tx) =>
        tx.listWebhookDeliveries({ webhookId: hook.id, limit: 2, ...(cursor === null ? {} : { cursor }) }),
      );
      ids.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(ids).toEqual(['whd_4', 'whd_3', 'whd_2', 'whd_1', 'whd_0']);
    const dead = await store.read((tx) => tx.listWebhookDeliveries({ webhookId: hook.id, status: 'dead' }));
    expect(dead.items.map((d) => d.id)).toEqual(['whd_4', 'whd_2', 'whd_0']);
    expect(dead.items[0]).toEqual(deliveries[4]);
  });
}

function attemptOf(delivery: WebhookDeliveryRecord | undefined) {
  if (delivery === undefined) throw new Error('nothing was claimed');
  return {
    deliveryId: delivery.id,
    attempt: delivery.attempts,
    startedAt: 5_000,
    durationMs: null,
    statusCode: null,
    responseExcerpt: null,
    error: null,
  };
}
