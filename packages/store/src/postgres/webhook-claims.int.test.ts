import { afterAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../testing/postgres.js';
import type { Store } from '../types.js';

const DELIVERIES = 60;

describe('webhook claims across Postgres nodes', () => {
  const started: TestPostgres[] = [];
  afterAll(async () => {
    await Promise.all(started.map((target) => target.stop()));
  });

  async function drain(store: Store, node: string): Promise<string[]> {
    const claimed: string[] = [];
    for (;;) {
      const batch = await store.transaction((tx) =>
        tx.claimWebhookDeliveries({
          limit: 7,
          leaseMs: 60_000,
          token: `${node}:${claimed.length}`,
          maxAttempts: 8,
        }),
      );
      if (batch.length === 0) return claimed;
      claimed.push(...batch.map((delivery) => delivery.id));
    }
  }

  it('hands each due delivery to exactly one of three nodes claiming at once', async () => {
    const target = await startTestPostgres({ timeFromClock: false });
    started.push(target);
    const nodes = [target.store, await target.openStore(), await target.openStore()];
    await target.store.transaction(async (tx) => {
      for (let i = 0; i < DELIVERIES; i++) {
        await tx.insertWebhookDelivery({
          id: `whd_${String(i).padStart(3, '0')}`,
          webhookId: 'wh_a',
          eventId: `evt_${i}`,
          eventType: 'gate.opened',
          payload: '{}',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: 0,
          claimedUntil: null,
          lastAttemptAt: null,
          lastStatusCode: null,
          lastError: null,
          redeliveryOf: null,
          createdAt: 1,
          updatedAt: 1,
        });
      }
    });
    const claims = await Promise.all(nodes.map((store, i) => drain(store, `node-${i}`)));
    const all = claims.flat();
    expect(all).toHaveLength(DELIVERIES);
    expect(new Set(all).size).toBe(DELIVERIES);
    const stored = await target.store.read((tx) =>
      tx.listWebhookDeliveries({ webhookId: 'wh_a', limit: 1000 }),
    );
    expect(stored.items.every((delivery) => delivery.attempts === 1)).toBe(true);
  });
});
