import { useCallback, useEffect, useState } from 'react';
import { getRun } from '../api/runs.js';

const titles = new Map<string, string | null>();

/** Run titles by id, read once per run; null while unknown or for a run without a title. */
export function useRunTitles(runIds: readonly string[]): (runId: string) => string | null {
  const [, setLoaded] = useState(0);
  // A huge inbox names many runs: titles arrive a hundred at a time.
  const unknown = [...new Set(runIds.filter((id) => !titles.has(id)))].sort().slice(0, 100).join(',');

  useEffect(() => {
    if (unknown === '') return;
    const controller = new AbortController();
    void Promise.all(
      unknown.split(',').map((id) =>
        getRun(id, controller.signal).then(
          (answer) => titles.set(id, answer.run.title),
          // A title is a nicety: the id still shows.
          () => titles.set(id, null),
        ),
      ),
    ).then(() => {
      if (!controller.signal.aborted) setLoaded((n) => n + 1);
    });
    return () => controller.abort();
  }, [unknown]);

  return useCallback((runId: string) => titles.get(runId) ?? null, []);
}
