import type { NotificationChannelName } from 'gatehouse-hitl-store';
import type { GateNotice, NotificationChannelDefinition } from '../services/notifications/channel.js';

/** A channel defined outside the server's registry that keeps every notice it is handed. */
export interface FixtureChannel {
  definition: NotificationChannelDefinition;
  delivered: GateNotice[];
  /** Resolves once `count` notices arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<GateNotice[]>;
}

/**
 * A whole channel in one definition, handed to the app the way `channels/index.ts` hands the real
 * ones. Its name is not in the protocol's list, so no API call can choose it; routing and delivery
 * take it all the same (a real channel adds its name to `NOTIFICATION_CHANNELS`).
 */
export function createFixtureChannel(options: { configured: boolean }): FixtureChannel {
  const delivered: GateNotice[] = [];
  const waiters = new Set<() => void>();
  const definition: NotificationChannelDefinition = {
    name: 'fixture' as NotificationChannelName,
    isConfigured: () => options.configured,
    create: () => ({
      async deliver(notice) {
        delivered.push(notice);
        for (const wake of waiters) wake();
        return { ok: true, ref: `fixture:${delivered.length}` };
      },
    }),
  };
  return {
    definition,
    delivered,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (delivered.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(delivered.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} notices on the fixture channel, got ${delivered.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
