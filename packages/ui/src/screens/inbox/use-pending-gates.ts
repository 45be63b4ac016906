import type { StreamEventName } from 'gatehouse-hitl-protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorText } from '../../api/client.js';
import { INBOX_EVENTS_PATH, type StreamEvent, type StreamStatus, useEventStream } from '../../api/events.js';
import { type ListedGate as Gate, getGate, listAllGates } from '../../api/gates.js';
import { usePausedRuns } from '../../components/use-run-status.js';

/** More pending gates than this are not loaded; the inbox says so. */
export const MAX_PENDING = 5000;

/** Events after which a gate is no longer pending, wherever it was decided. */
const ENDING_EVENTS = new Set<StreamEventName>([
  'gate.decided',
  'gate.expired',
  'gate.cancelled',
  'gate.consumed',
]);
/** Events that change a pending gate (votes, deadline, assignees, role): read it again. */
const CHANGING_EVENTS = new Set<StreamEventName>([
  'gate.vote',
  'gate.extended',
  'gate.assigned',
  'gate.escalated',
  'gate.steer_failed',
]);

/** A burst of new gates larger than this reloads the list instead of reading each gate. */
const MAX_QUEUED_READS = 100;
const PARALLEL_READS = 4;
/** The first load waits for the stream to connect (so nothing falls between), but not longer than this. */
const FIRST_LOAD_WAIT_MS = 1500;
/** Many events in a row are shown together, at most this often. */
const FLUSH_MS = 30;

export type PendingLoad =
  | { status: 'loading' }
  | { status: 'ready'; complete: boolean; refreshError: string | null }
  | { status: 'error'; message: string };

export interface PendingGates {
  /** Every pending gate, in no particular order. */
  gates: readonly Gate[];
  load: PendingLoad;
  stream: StreamStatus;
  /** The runs that are paused now: their gates wait, and an approval goes ahead only on resume. */
  pausedRuns: ReadonlySet<string>;
  /** Reads the whole list again. */
  reload(): void;
}

interface Changes {
  upserts: Map<string, Gate>;
  removed: Set<string>;
}

/**
 * The pending gates, kept live from the inbox event stream: new gates appear, gates that end
 * anywhere leave at once, changed gates are read again. After a reconnect the list is read again.
 */
export function usePendingGates(): PendingGates {
  const [gates, setGates] = useState<readonly Gate[]>([]);
  const [load, setLoad] = useState<PendingLoad>({ status: 'loading' });
  const [stream, setStream] = useState<StreamStatus>('connecting');

  const map = useRef(new Map<string, Gate>());
  /** Gates seen ending; a late read or list never brings them back. */
  const ended = useRef(new Set<string>());
  /** Changes made while a list load runs, applied on top of its result. */
  const duringLoad = useRef<Changes | null>(null);
  const loadAbort = useRef<AbortController | null>(null);
  const loaded = useRef(false);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queue = useRef(new Set<string>());
  const reading = useRef(0);
  const streamStatus = useRef<StreamStatus>('connecting');
  const disposed = useRef(false);
  const paused = usePausedRuns();

  const flush = useCallback(() => {
    if (flushTimer.current !== null) return;
    flushTimer.current = setTimeout(() => {
      flushTimer.current = null;
      if (!disposed.current) setGates([...map.current.values()]);
    }, FLUSH_MS);
  }, []);

  const remove = useCallback(
    (id: string) => {
      ended.current.add(id);
      duringLoad.current?.removed.add(id);
      queue.current.delete(id);
      if (map.current.delete(id)) flush();
    },
    [flush],
  );

  const upsert = useCallback(
    (gate: Gate) => {
      if (gate.status !== 'pending') return remove(gate.id);
      if (ended.current.has(gate.id)) return;
      duringLoad.current?.upserts.set(gate.id, gate);
      map.current.set(gate.id, gate);
      flush();
    },
    [flush, remove],
  );

  const reload = useCallback(
    (quiet = false) => {
      loadAbort.current?.abort();
      const controller = new AbortController();
      loadAbort.current = controller;
      const changes: Changes = { upserts: new Map(), removed: new Set() };
      duringLoad.current = changes;
      if (!quiet) setLoad((current) => (current.status === 'ready' ? current : { status: 'loading' }));
      listAllGates({ status: 'pending' }, { max: MAX_PENDING, signal: controller.signal }).then(
        ({ gates: listed, complete }) => {
          if (controller.signal.aborted || disposed.current) return;
          const next = new Map<string, Gate>();
          for (const gate of listed) if (!ended.current.has(gate.id)) next.set(gate.id, gate);
          for (const [id, gate] of changes.upserts) next.set(id, gate);
          for (const id of changes.removed) next.delete(id);
          map.current = next;
          duringLoad.current = null;
          loaded.current = true;
          setLoad({ status: 'ready', complete, refreshError: null });
          flush();
        },
        (error: unknown) => {
          if (controller.signal.aborted || disposed.current) return;
          duringLoad.current = null;
          const message = errorText(error);
          setLoad((current) =>
            current.status === 'ready' ? { ...current, refreshError: message } : { status: 'error', message },
          );
        },
      );
    },
    [flush],
  );

  const pump = useCallback(() => {
    while (reading.current < PARALLEL_READS && queue.current.size > 0) {
      const id = queue.current.values().next().value as string;
      queue.current.delete(id);
      reading.current += 1;
      getGate(id)
        .then(
          (view) => {
            if (!disposed.current) upsert({ ...view.gate, headline: view.headline });
          },
          (error: unknown) => {
            if (!disposed.current && error instanceof ApiError && error.status === 404) remove(id);
          },
        )
        .finally(() => {
          reading.current -= 1;
          if (!disposed.current) pump();
        });
    }
  }, [upsert, remove]);

  const read = useCallback(
    (id: string) => {
      if (ended.current.has(id)) return;
      queue.current.add(id);
      if (queue.current.size > MAX_QUEUED_READS) {
        queue.current.clear();
        reload(true);
        return;
      }
      pump();
    },
    [pump, reload],
  );

  const pausedEvent = paused.onEvent;
  const reloadPaused = paused.reload;
  const onEvent = useCallback(
    (event: StreamEvent) => {
      pausedEvent(event);
      const id = event.gateId;
      if (id === null) return;
      if (ENDING_EVENTS.has(event.type)) remove(id);
      else if (event.type === 'gate.opened' || CHANGING_EVENTS.has(event.type)) read(id);
    },
    [remove, read, pausedEvent],
  );

  const onStatus = useCallback(
    (status: StreamStatus) => {
      const previous = streamStatus.current;
      streamStatus.current = status;
      setStream(status);
      if (status === 'live' && !loaded.current && duringLoad.current === null) reload();
      // Events may have been missed while away: read the list again once back (or to learn the session ended).
      else if (status === 'live' && previous === 'reconnecting') {
        reload(true);
        reloadPaused();
      } else if (status === 'reconnecting' && previous === 'live') reload(true);
    },
    [reload, reloadPaused],
  );

  useEventStream(INBOX_EVENTS_PATH, onEvent, onStatus);

  useEffect(() => {
    disposed.current = false;
    if (map.current.size > 0) flush();
    const timer = setTimeout(() => {
      if (!loaded.current && duringLoad.current === null) reload();
    }, FIRST_LOAD_WAIT_MS);
    return () => {
      disposed.current = true;
      clearTimeout(timer);
      loadAbort.current?.abort();
      duringLoad.current = null;
      if (flushTimer.current !== null) clearTimeout(flushTimer.current);
      flushTimer.current = null;
    };
  }, [reload, flush]);

  return {
    gates,
    load,
    stream,
    pausedRuns: paused.paused,
    reload: useCallback(() => reload(), [reload]),
  };
}
