import type { RunStatus } from 'gatehouse-hitl-core';
import { useCallback, useEffect, useState } from 'react';
import type { StreamEvent } from '../api/events.js';
import { getRun, listRuns } from '../api/runs.js';

/** Paused runs are few; past this many pages the rest are not looked up. */
const MAX_PAUSED_PAGES = 10;

/** The status a `run.status` stream event reports, or null for any other event. */
export function runStatusOf(event: StreamEvent): RunStatus | null {
  if (event.type !== 'run.status' || event.runId === null) return null;
  const status = event.data.status;
  return typeof status === 'string' ? (status as RunStatus) : null;
}

/**
 * The status of the run a gate belongs to, read when the gate shows and kept live from the stream
 * events its screen passes to `onEvent`; null for a gate without a run or while unknown.
 */
export function useRunStatus(runId: string | null): {
  status: RunStatus | null;
  onEvent(event: StreamEvent): void;
} {
  const [known, setKnown] = useState<{ runId: string; status: RunStatus } | null>(null);
  useEffect(() => {
    if (runId === null) return;
    const controller = new AbortController();
    getRun(runId, controller.signal).then(
      (answer) => setKnown({ runId, status: answer.run.status }),
      // The gate still shows without it.
      () => undefined,
    );
    return () => controller.abort();
  }, [runId]);
  const onEvent = useCallback(
    (event: StreamEvent) => {
      const status = runStatusOf(event);
      if (status !== null && event.runId === runId && runId !== null) setKnown({ runId, status });
    },
    [runId],
  );
  return { status: known !== null && known.runId === runId ? known.status : null, onEvent };
}

/** The runs that are paused now, read from the API and kept live from the inbox's stream events. */
export function usePausedRuns(): {
  paused: ReadonlySet<string>;
  onEvent(event: StreamEvent): void;
  reload(): void;
} {
  const [paused, setPaused] = useState<ReadonlySet<string>>(new Set());
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for a fresh read
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      const found = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAUSED_PAGES; page += 1) {
        const answer = await listRuns({ status: 'paused', cursor }, controller.signal);
        for (const run of answer.items) found.add(run.id);
        if (answer.nextCursor === null) break;
        cursor = answer.nextCursor;
      }
      if (!controller.signal.aborted) setPaused(found);
    })().catch(() => undefined);
    return () => controller.abort();
  }, [version]);
  const onEvent = useCallback((event: StreamEvent) => {
    const status = runStatusOf(event);
    const runId = event.runId;
    if (status === null || runId === null) return;
    setPaused((current) => {
      if ((status === 'paused') === current.has(runId)) return current;
      const next = new Set(current);
      if (status === 'paused') next.add(runId);
      else next.delete(runId);
      return next;
    });
  }, []);
  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return { paused, onEvent, reload };
}
