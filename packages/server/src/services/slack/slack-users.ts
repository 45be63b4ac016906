import { GatehouseError } from 'gatehouse-hitl-core';
import type { SlackUserLink } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';

type User = Extract<Principal, { kind: 'user' }>;

/** People's Slack user ids: admins set anyone's, a person their own. */
export interface SlackUserService {
  get(actor: User, userId: string): Promise<SlackUserLink | null>;
  set(actor: User, userId: string, slackUserId: string): Promise<SlackUserLink>;
  remove(actor: User, userId: string): Promise<boolean>;
}

function mayManage(actor: User, userId: string): void {
  if (actor.role === 'admin' || actor.id === userId) return;
  throw new GatehouseError(
    'FORBIDDEN',
    'only an admin or the person themselves may change their Slack user id',
    {
      userId,
    },
  );
}

function notFound(userId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no person ${userId}`, { userId });
}

export function createSlackUserService(ctx: AppContext): SlackUserService {
  return {
    async get(actor, userId) {
      mayManage(actor, userId);
      return ctx.store.read(async (tx) => {
        if ((await tx.getUser(userId)) === null) throw notFound(userId);
        return tx.getSlackUser(userId);
      });
    },

    async set(actor, userId, slackUserId) {
      mayManage(actor, userId);
      return commit(ctx, async ({ tx, audit }) => {
        if ((await tx.getUser(userId)) === null) throw notFound(userId);
        const taken = await tx.getSlackUserBySlackId(slackUserId);
        if (taken !== null && taken.userId !== userId) {
          throw new GatehouseError(
            'CONFLICT',
            `Slack user ${slackUserId} already belongs to another person`,
            {
              field: 'slackUserId',
            },
          );
        }
        const link = { userId, slackUserId, createdBy: `user:${actor.id}`, createdAt: tx.now };
        await tx.putSlackUser(link);
        await audit({
          kind: 'user.slack_linked',
          actor: `user:${actor.id}`,
          subject: userId,
          data: { slackUserId },
        });
        return link;
      });
    },

    async remove(actor, userId) {
      mayManage(actor, userId);
      return commit(ctx, async ({ tx, audit }) => {
        if ((await tx.getUser(userId)) === null) throw notFound(userId);
        const removed = await tx.deleteSlackUser(userId);
        if (removed)
          await audit({ kind: 'user.slack_unlinked', actor: `user:${actor.id}`, subject: userId, data: {} });
        return removed;
      });
    },
  };
}
