import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type GateView, getGate } from '../api/gate-review.js';

export interface GateViewState {
  view: GateView | null;
  error: unknown;
  loading: boolean;
  /** Reads the gate again from the server; a later call wins over an earlier one still running. */
  reload(): Promise<void>;
  /** Takes a gate the server just returned (after extend or assign) without another read. */
  replaceGate(gate: Gate): void;
}

/**
 * One gate with its Summary of Action, read from the server and re-read on demand; `prepare`
 * runs before a read is shown (to look up names, say), so the screen never shows half of it.
 */
export function useGateView(gateId: string, prepare?: (view: GateView) => Promise<void>): GateViewState {
  const [view, setView] = useState<GateView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const next = await getGate(gateId);
      await prepare?.(next);
      if (call !== latest.current) return;
      setView(next);
      setError(null);
    } catch (failure) {
      if (call === latest.current) setError(failure);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, [gateId, prepare]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const replaceGate = useCallback((gate: Gate) => {
    latest.current++;
    setView((current) => (current === null ? current : { ...current, gate }));
  }, []);

  return { view, error, loading, reload, replaceGate };
}
