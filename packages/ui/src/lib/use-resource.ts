import { useCallback, useEffect, useRef, useState } from 'react';

export type Resource<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; value: T; refreshing: boolean };

/**
 * Loads `load()` when `key` changes and on `reload()`; a reload keeps the last value on screen
 * (`refreshing`) and a stale answer never overwrites a newer one.
 */
export function useResource<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): { resource: Resource<T>; reload: () => void } {
  const [resource, setResource] = useState<Resource<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  const lastKey = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the reload trigger
  useEffect(() => {
    const controller = new AbortController();
    const keyChanged = lastKey.current !== key;
    lastKey.current = key;
    setResource((current) =>
      current.status === 'ready' && !keyChanged ? { ...current, refreshing: true } : { status: 'loading' },
    );
    loader.current(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setResource({ status: 'ready', value, refreshing: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResource({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { resource, reload };
}
