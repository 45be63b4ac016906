import { setTimeout as sleep } from 'node:timers/promises';
import { streamRoutes } from 'gatehouse-hitl-protocol';
import { readSse, type SseMessage } from 'gatehouse-hitl-sdk';
import type { ApiClient } from './http.js';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5000;

export interface InboxWatch {
  /** Called for every event, and with `null` on each (re)connect, when events may have been missed. */
  onEvent(message: SseMessage | null): void;
  /** Called when the stream drops (with the reason) or comes back (with null). */
  onStatus?(error: unknown): void;
  signal: AbortSignal;
}

/**
 * Follows `GET /v1/inbox/events` until the signal aborts, reconnecting with `Last-Event-ID`
 * (backing off up to 5 s) after a drop so no event is lost.
 */
export async function watchInbox(client: ApiClient, watch: InboxWatch): Promise<void> {
  let lastEventId: string | null = null;
  let failures = 0;
  while (!watch.signal.aborted) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      const response = await client.open(streamRoutes.inbox.path, { headers, signal: watch.signal });
      if (!response.body) throw new Error('the event stream has no body');
      failures = 0;
      watch.onStatus?.(null);
      watch.onEvent(null);
      for await (const message of readSse(response.body)) {
        lastEventId = message.id ?? lastEventId;
        watch.onEvent(message);
      }
      if (!watch.signal.aborted) watch.onStatus?.(new Error('the event stream ended'));
    } catch (error) {
      if (watch.signal.aborted) return;
      watch.onStatus?.(error);
    }
    failures += 1;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    await sleep(delay, undefined, { signal: watch.signal }).catch(() => {});
  }
}
