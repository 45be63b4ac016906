import { useCallback, useEffect, useMemo, useRef } from 'react';
import { type GateViewPart, reportGateView } from '../api/review-health.js';

/** On screen this long counts as opened: a glance on the way to the Approve button does not. */
export const VIEW_DWELL_MS = 2000;

/**
 * Reports which parts of a gate the person opened: a part counts once it was on screen for
 * VIEW_DWELL_MS, or at once when they expand it (`opened`). Each part is reported once per gate.
 */
export function useViewReport(gateId: string): {
  /** Callback refs, one per part, stable across renders. */
  watch: Record<GateViewPart, (element: HTMLElement | null) => void>;
  opened: (part: GateViewPart) => void;
} {
  const reported = useRef(new Set<string>());
  const timers = useRef(new Map<GateViewPart, ReturnType<typeof setTimeout>>());
  const observers = useRef(new Map<GateViewPart, IntersectionObserver>());

  const opened = useCallback(
    (part: GateViewPart) => {
      const key = `${gateId}\n${part}`;
      if (reported.current.has(key)) return;
      reported.current.add(key);
      // A lost report only makes the figures stricter; the review itself goes on.
      reportGateView(gateId, part).catch(() => reported.current.delete(key));
    },
    [gateId],
  );

  const watchPart = useCallback(
    (part: GateViewPart) => (element: HTMLElement | null) => {
      observers.current.get(part)?.disconnect();
      observers.current.delete(part);
      if (element === null || typeof IntersectionObserver === 'undefined') return;
      const observer = new IntersectionObserver((entries) => {
        const visible = entries.some((entry) => entry.isIntersecting);
        const timer = timers.current.get(part);
        if (visible && timer === undefined) {
          timers.current.set(
            part,
            setTimeout(() => opened(part), VIEW_DWELL_MS),
          );
        } else if (!visible && timer !== undefined) {
          clearTimeout(timer);
          timers.current.delete(part);
        }
      });
      observer.observe(element);
      observers.current.set(part, observer);
    },
    [opened],
  );

  const watch = useMemo(
    () => ({ diff: watchPart('diff'), arguments: watchPart('arguments'), findings: watchPart('findings') }),
    [watchPart],
  );

  useEffect(
    () => () => {
      for (const observer of observers.current.values()) observer.disconnect();
      for (const timer of timers.current.values()) clearTimeout(timer);
      timers.current.clear();
    },
    [],
  );
  return { watch, opened };
}
