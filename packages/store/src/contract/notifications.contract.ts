import { expect, it } from 'vitest';
import type { NotificationRecord, NotificationRuleRecord } from '../notification-types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

function rule(overrides: Partial<NotificationRuleRecord> = {}): NotificationRuleRecord {
  return {
    id: uid('nrl'),
    name: 'High risk to leads',
    gateTypes: ['deploy'],
    risks: ['high', 'critical'],
    agentIds: [],
    roles: ['tech_lead'],
    assigneesOnly: false,
    triggers: [],
    channels: ['email', 'slack'],
    enabled: true,
    createdBy: 'user_admin',
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

function notice(
  gateId: string,
  createdAt: number,
  overrides: Partial<NotificationRecord> = {},
): NotificationRecord {
  return {
    id: uid('ntf'),
    triggerId: uid('aud'),
    trigger: 'gate.opened',
    gateId,
    userId: 'user_a',
    channel: 'email',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    claimedUntil: null,
    lastError: null,
    ref: null,
    data: '{}',
    createdAt,
    updatedAt: createdAt,
    sentAt: null,
    ...overrides,
  };
}

/** Notification rules, people's channels, the notice queue and emailed links. */
export function describeNotificationContract(ctx: ContractContext): void {
  it('keeps, changes and deletes rules, and upserts a person’s channels', async () => {
    const { store } = ctx.harness();
    const kept = rule();
    await store.transaction((tx) => tx.insertNotificationRule(kept));
    expect(await store.read((tx) => tx.getNotificationRule(kept.id))).toEqual(kept);
    const changed = { ...kept, enabled: false, roles: [], updatedAt: 2_000 };
    expect(await store.transaction((tx) => tx.updateNotificationRule(changed))).toBe(true);
    expect(await store.read((tx) => tx.listNotificationRules())).toEqual([changed]);
    expect(await store.transaction((tx) => tx.deleteNotificationRule(kept.id))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteNotificationRule(kept.id))).toBe(false);
    const preference = {
      userId: 'user_a',
      channels: ['email' as const],
      email: 'a@example.test',
      updatedAt: 1,
    };
    await store.transaction((tx) => tx.putNotificationPreference(preference));
    await store.transaction((tx) =>
      tx.putNotificationPreference({ ...preference, email: null, updatedAt: 2 }),
    );
    expect(await store.read((tx) => tx.getNotificationPreference('user_a'))).toEqual({
      ...preference,
      email: null,
      updatedAt: 2,
    });
  });

  it('claims a notice only after the earlier ones to the same person, channel and gate are done', async () => {
    const { store } = ctx.harness();
    const gateId = uid('gate');
    const opened = notice(gateId, 1);
    const decided = notice(gateId, 2, { trigger: 'gate.decided' });
    await store.transaction(async (tx) => {
      await tx.insertNotification(decided);
      await tx.insertNotification(opened);
    });
    const first = await store.transaction((tx) =>
      tx.claimNotifications({ limit: 10, leaseMs: 60_000, token: 't1' }),
    );
    expect(first.map((n) => n.id)).toEqual([opened.id]);
    const outcome = { status: 'sent' as const, ref: '<m1@example.test>' };
    expect(await store.transaction((tx) => tx.finishNotification(opened.id, 'wrong', outcome))).toBe(false);
    expect(await store.transaction((tx) => tx.finishNotification(opened.id, 't1', outcome))).toBe(true);
    const second = await store.transaction((tx) =>
      tx.claimNotifications({ limit: 10, leaseMs: 60_000, token: 't2' }),
    );
    expect(second.map((n) => [n.id, n.previousRef, n.attempts])).toEqual([
      [decided.id, '<m1@example.test>', 1],
    ]);
    expect(
      await store.transaction((tx) => tx.claimNotifications({ limit: 10, leaseMs: 60_000, token: 't3' })),
    ).toEqual([]);
    await store.transaction((tx) =>
      tx.finishNotification(decided.id, 't2', { status: 'failed', error: '550 mailbox unavailable' }),
    );
    const failed = await store.read((tx) => tx.listNotifications({ status: 'failed' }));
    expect(failed.items.map((n) => [n.id, n.lastError])).toEqual([[decided.id, '550 mailbox unavailable']]);
  });

  it('keeps one secret per name and records each emailed link’s use once', async () => {
    const { store } = ctx.harness();
    const first = await store.transaction((tx) => tx.ensureNotificationSecret('links', 'one'));
    const second = await store.transaction((tx) => tx.ensureNotificationSecret('links', 'two'));
    expect([first, second]).toEqual(['one', 'one']);
    expect(await store.read((tx) => tx.isEmailActionLinkUsed('link-1'))).toBe(false);
    expect(await store.transaction((tx) => tx.useEmailActionLink('link-1', 'gate_1', 'user_a'))).toBe(true);
    expect(await store.transaction((tx) => tx.useEmailActionLink('link-1', 'gate_1', 'user_a'))).toBe(false);
    expect(await store.read((tx) => tx.isEmailActionLinkUsed('link-1'))).toBe(true);
    await store.transaction((tx) => tx.releaseEmailActionLink('link-1'));
    expect(await store.read((tx) => tx.isEmailActionLinkUsed('link-1'))).toBe(false);
    expect(await store.transaction((tx) => tx.useEmailActionLink('link-1', 'gate_1', 'user_a'))).toBe(true);
  });

  it('warns once per gate and deadline', async () => {
    const { store } = ctx.harness();
    expect(await store.transaction((tx) => tx.markTimeoutWarned('gate_w', 5_000))).toBe(true);
    expect(await store.transaction((tx) => tx.markTimeoutWarned('gate_w', 5_000))).toBe(false);
    expect(await store.transaction((tx) => tx.markTimeoutWarned('gate_w', 9_000))).toBe(true);
  });
}
