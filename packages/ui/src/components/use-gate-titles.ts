import { useCallback, useEffect, useState } from 'react';
import { getGate } from '../api/gates.js';

const titles = new Map<string, string | null>();

/** Gate headlines (the Summary of Action's line) by id, read once per gate; null while unknown. */
export function useGateTitles(gateIds: readonly string[]): (gateId: string) => string | null {
  const [, setLoaded] = useState(0);
  // A long audit page names many gates: headlines arrive a hundred at a time.
  const unknown = [...new Set(gateIds.filter((id) => !titles.has(id)))].sort().slice(0, 100).join(',');

  useEffect(() => {
    if (unknown === '') return;
    const controller = new AbortController();
    void Promise.all(
      unknown.split(',').map((id) =>
        getGate(id, controller.signal).then(
          (view) => titles.set(id, view.headline),
          // A headline is a nicety: the id still shows.
          () => titles.set(id, null),
        ),
      ),
    ).then(() => {
      if (!controller.signal.aborted) setLoaded((n) => n + 1);
    });
    return () => controller.abort();
  }, [unknown]);

  return useCallback((gateId: string) => titles.get(gateId) ?? null, []);
}
