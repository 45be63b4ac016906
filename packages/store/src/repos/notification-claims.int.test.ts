import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationRecord } from '../notification-types.js';
import { openTracedStore, type TracedStore } from '../testing/traced-store.js';

const PEOPLE = 20;

function notice(
  id: string,
  userId: string,
  trigger: string,
  status: 'pending' | 'sent',
  at: number,
): NotificationRecord {
  return {
    id,
    triggerId: `aud_${id}`,
    trigger,
    gateId: 'gate_claims',
    userId,
    channel: 'email',
    status,
    attempts: status === 'sent' ? 1 : 0,
    nextAttemptAt: status === 'sent' ? null : 0,
    claimedUntil: null,
    lastError: null,
    ref: status === 'sent' ? `<${id}@example.test>` : null,
    data: '{}',
    createdAt: at,
    updatedAt: at,
    sentAt: status === 'sent' ? at : null,
  };
}

describe.each(Object.keys(openTracedStore) as (keyof typeof openTracedStore)[])(
  'notification claims on %s',
  (dialect) => {
    const opened: TracedStore[] = [];
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    it('claims 20 notices in the same few statements as one, each with its own previous ref', async () => {
      const { store, trace, close } = await openTracedStore[dialect]();
      opened.push({ store, trace, close });
      // Each person was told of the gate twice before (the later message is the one to reply to).
      await store.transaction(async (tx) => {
        for (let i = 0; i < PEOPLE; i++) {
          await tx.insertNotification(notice(`ntf_open${i}`, `user_${i}`, 'gate.opened', 'sent', 1));
          await tx.insertNotification(notice(`ntf_warn${i}`, `user_${i}`, 'gate.timeout_warning', 'sent', 2));
          await tx.insertNotification(notice(`ntf_done${i}`, `user_${i}`, 'gate.decided', 'pending', 3));
        }
      });
      const claim = async (limit: number, token: string) => {
        trace.length = 0;
        const claimed = await store.transaction((tx) =>
          tx.claimNotifications({ limit, leaseMs: 60_000, token }),
        );
        return { claimed, statements: trace.length };
      };
      const one = await claim(1, 't1');
      const rest = await claim(PEOPLE, 't2');
      expect(rest.claimed).toHaveLength(PEOPLE - 1);
      expect(rest.statements).toBe(one.statements);
      const threads = [...one.claimed, ...rest.claimed].map((n) => `${n.userId} ${n.previousRef}`);
      expect(threads.sort()).toEqual(
        Array.from({ length: PEOPLE }, (_, i) => `user_${i} <ntf_warn${i}@example.test>`).sort(),
      );
    });
  },
);
