import { revealText } from 'gatehouse-hitl-protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { INBOX_EVENTS_PATH, useEventStream } from '../api/events.js';
import { listGates } from '../api/gates.js';
import { isForMe, newlyForMe } from './pending-for-me.js';
import { useSession } from './session.js';

const LIMIT = 500;
// Bursts of events (a batch decision, a flood of gates) become one read.
const SETTLE_MS = 300;

export interface PendingWatch {
  /** Pending gates waiting for this person; null until the first read. */
  count: number | null;
  /** True when more gates wait than one read lists. */
  more: boolean;
}

function notify(gate: { id: string; headline: string }, open: (id: string) => void): void {
  const notification = new Notification('A gate is waiting for you', {
    body: revealText(gate.headline),
    tag: gate.id,
  });
  notification.onclick = () => {
    window.focus();
    open(gate.id);
    notification.close();
  };
}

/**
 * Follows the pending gates waiting for the signed-in person: their count for the tab title and,
 * once the person allowed it, a desktop notification for each gate that arrives (or escalates) to them.
 */
export function usePendingWatch(): PendingWatch {
  const session = useSession();
  const me = session.user;
  const [, navigate] = useLocation();
  const [state, setState] = useState<PendingWatch>({ count: null, more: false });
  const known = useRef<Set<string> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const openGate = useCallback((id: string) => navigate(`/gates/${encodeURIComponent(id)}`), [navigate]);

  const read = useCallback(async () => {
    try {
      const page = await listGates({ status: 'pending', limit: LIMIT });
      const mine = page.items.filter((gate) => isForMe(gate, me));
      const before = known.current;
      known.current = new Set(mine.map((gate) => gate.id));
      setState({ count: mine.length, more: page.nextCursor !== null });
      // The first read only learns what was already waiting.
      if (before === null || typeof Notification === 'undefined' || Notification.permission !== 'granted')
        return;
      for (const gate of newlyForMe(before, mine)) notify(gate, openGate);
    } catch {
      // The count is a nicety; the inbox says when the server cannot be reached.
    }
  }, [me, openGate]);

  useEffect(() => {
    void read();
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [read]);

  const onEvent = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void read(), SETTLE_MS);
  }, [read]);
  useEventStream(INBOX_EVENTS_PATH, onEvent);
  return state;
}
