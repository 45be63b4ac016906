import {
  STREAM_EVENT_NAMES,
  type StreamEventName,
  type StreamEventOf,
  streamRoutes,
} from 'gatehouse-hitl-protocol';
import { useEffect, useRef } from 'react';

/** The reviewers' inbox stream (Server-Sent Events). */
export const INBOX_EVENTS_PATH = streamRoutes.inbox.path;

/** One event of a Gatehouse stream, as the server sends it in `data:` (the protocol's schema). */
export type StreamEvent = StreamEventOf<StreamEventName>;

export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

/**
 * Follows a Server-Sent-Events stream of this origin (the session cookie authenticates it).
 * EventSource reconnects by itself and resumes with `Last-Event-ID`, so no event is missed.
 */
export function useEventStream(
  path: string | null,
  onEvent: (event: StreamEvent) => void,
  onStatus?: (status: StreamStatus) => void,
): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const statusHandler = useRef(onStatus);
  statusHandler.current = onStatus;

  useEffect(() => {
    if (path === null) return;
    const source = new EventSource(path, { withCredentials: true });
    statusHandler.current?.('connecting');
    const receive = (message: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(message.data) as StreamEvent);
      } catch {
        // a heartbeat or a malformed line: nothing to do
      }
    };
    source.onmessage = receive;
    // Named events (`event: gate.decided`) do not reach onmessage; listen to every name the server sends.
    for (const type of STREAM_EVENT_NAMES) source.addEventListener(type, receive as EventListener);
    source.onopen = () => statusHandler.current?.('live');
    source.onerror = () => statusHandler.current?.('reconnecting');
    return () => source.close();
  }, [path]);
}
