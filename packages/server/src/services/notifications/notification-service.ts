import { type GateCatalog, GatehouseError, hasRole, type Role } from 'gatehouse-hitl-core';
import {
  type CreateNotificationRuleBody,
  type MyNotificationChannelsBody,
  type MyNotificationChannelsResponse,
  NOTIFICATION_CHANNELS,
  type UpdateNotificationRuleBody,
} from 'gatehouse-hitl-protocol';
import type {
  NotificationFilter,
  NotificationRecord,
  NotificationRuleRecord,
  Page,
} from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { commit } from '../commit.js';
import type { NotificationChannel } from './channel.js';
import { notificationChannels } from './channels.js';
import { createNotificationWorker } from './worker.js';

/** A notice as the API shows it (the trigger's facts stay inside). */
export type NotificationView = Omit<NotificationRecord, 'data' | 'triggerId' | 'claimedUntil'>;

export interface Caller {
  id: string;
  role: Role;
}

/** Notification rules, people's channel choices and the delivery log; delivery runs in the worker. */
export interface NotificationService {
  listRules(): Promise<{ rules: NotificationRuleRecord[]; defaultApplies: boolean }>;
  createRule(by: Caller, input: CreateNotificationRuleBody): Promise<NotificationRuleRecord>;
  updateRule(by: Caller, id: string, changes: UpdateNotificationRuleBody): Promise<NotificationRuleRecord>;
  deleteRule(by: Caller, id: string): Promise<NotificationRuleRecord>;
  list(by: Caller, filter: NotificationFilter): Promise<Page<NotificationView>>;
  myChannels(userId: string): Promise<MyNotificationChannelsResponse>;
  setMyChannels(userId: string, input: MyNotificationChannelsBody): Promise<MyNotificationChannelsResponse>;
  /** The channels this app delivers through (the email-action routes read the email one's settings). */
  readonly channels: readonly NotificationChannel[];
  start(): void;
  close(): Promise<void>;
}

/** Rules and the whole delivery log are for tech leads and admins. */
export const NOTIFICATION_ADMIN_ROLE: Role = 'tech_lead';

function viewOf(record: NotificationRecord): NotificationView {
  const { data: _data, triggerId: _trigger, claimedUntil: _claimed, ...view } = record;
  return view;
}

function notFound(id: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no notification rule ${id}`, { field: 'id' });
}

function unique<T>(items: readonly T[] | undefined): T[] {
  return [...new Set(items ?? [])];
}

/** `catalog`: the gate types, custom ones included, whose briefings name a gate in what is sent. */
export function createNotificationService(ctx: AppContext, catalog: GateCatalog): NotificationService {
  const channels = notificationChannels(ctx, catalog);
  const worker = createNotificationWorker(ctx, channels);
  // A channel the server does not deliver (browser) is the web app's own, so it is always there.
  const available = (name: string) => channels.every((c) => c.kind !== name || c.enabled);

  async function myChannels(userId: string): Promise<MyNotificationChannelsResponse> {
    return ctx.store.read(async (tx) => {
      const preference = await tx.getNotificationPreference(userId);
      const slack = await tx.getSlackUser(userId);
      return {
        // Until a person chooses, every channel reaches them (routing reads no choice as all).
        channels: preference?.channels ?? [...NOTIFICATION_CHANNELS],
        chosen: preference !== null,
        email: preference?.email ?? null,
        slackLinked: slack !== null,
        available: Object.fromEntries(
          NOTIFICATION_CHANNELS.map((name) => [name, available(name)]),
        ) as MyNotificationChannelsResponse['available'],
      };
    });
  }

  return {
    channels,
    listRules: () =>
      ctx.store.read(async (tx) => {
        const rules = await tx.listNotificationRules();
        return { rules, defaultApplies: !rules.some((rule) => rule.enabled) };
      }),

    createRule: (by, input) =>
      commit(ctx, async ({ tx, audit }) => {
        const rule: NotificationRuleRecord = {
          id: ctx.ids.next('nrl'),
          name: input.name,
          gateTypes: unique(input.gateTypes),
          risks: unique(input.risks),
          agentIds: unique(input.agentIds),
          roles: unique(input.roles),
          assigneesOnly: input.assigneesOnly ?? false,
          triggers: unique(input.triggers),
          channels: unique(input.channels),
          enabled: input.enabled ?? true,
          createdBy: by.id,
          createdAt: tx.now,
          updatedAt: tx.now,
        };
        await tx.insertNotificationRule(rule);
        await audit({
          kind: 'notification_rule.created',
          actor: `user:${by.id}`,
          subject: rule.id,
          data: { ...rule },
        });
        return rule;
      }),

    updateRule: (by, id, changes) =>
      commit(ctx, async ({ tx, audit }) => {
        const current = await tx.getNotificationRule(id);
        if (current === null) throw notFound(id);
        const next: NotificationRuleRecord = {
          ...current,
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.gateTypes === undefined ? {} : { gateTypes: unique(changes.gateTypes) }),
          ...(changes.risks === undefined ? {} : { risks: unique(changes.risks) }),
          ...(changes.agentIds === undefined ? {} : { agentIds: unique(changes.agentIds) }),
          ...(changes.roles === undefined ? {} : { roles: unique(changes.roles) }),
          ...(changes.assigneesOnly === undefined ? {} : { assigneesOnly: changes.assigneesOnly }),
          ...(changes.triggers === undefined ? {} : { triggers: unique(changes.triggers) }),
          ...(changes.channels === undefined ? {} : { channels: unique(changes.channels) }),
          ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
          updatedAt: tx.now,
        };
        if (!(await tx.updateNotificationRule(next))) throw notFound(id);
        await audit({
          kind: 'notification_rule.updated',
          actor: `user:${by.id}`,
          subject: id,
          data: { ...changes },
        });
        return next;
      }),

    deleteRule: (by, id) =>
      commit(ctx, async ({ tx, audit }) => {
        const current = await tx.getNotificationRule(id);
        if (current === null || !(await tx.deleteNotificationRule(id))) throw notFound(id);
        await audit({
          kind: 'notification_rule.deleted',
          actor: `user:${by.id}`,
          subject: id,
          data: { name: current.name },
        });
        return current;
      }),

    async list(by, filter) {
      const own = !hasRole(by.role, NOTIFICATION_ADMIN_ROLE);
      if (own && filter.userId !== undefined && filter.userId !== by.id) {
        throw new GatehouseError(
          'FORBIDDEN',
          `only a ${NOTIFICATION_ADMIN_ROLE} or admin sees other people's notifications`,
          {
            field: 'userId',
          },
        );
      }
      const scoped = own ? { ...filter, userId: by.id } : filter;
      const page = await ctx.store.read((tx) => tx.listNotifications(scoped));
      return { items: page.items.map(viewOf), nextCursor: page.nextCursor };
    },

    myChannels,
    async setMyChannels(userId, input) {
      await ctx.store.transaction((tx) =>
        tx.putNotificationPreference({
          userId,
          channels: unique(input.channels),
          email: input.email,
          updatedAt: tx.now,
        }),
      );
      return myChannels(userId);
    },

    start: () => worker.start(),
    async close() {
      await worker.stop();
      await Promise.all(channels.map((channel) => channel.close?.()));
    },
  };
}
