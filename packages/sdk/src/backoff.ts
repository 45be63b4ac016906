/** Resolved retry settings. */
export interface Backoff {
  initialDelayMs: number;
  maxDelayMs: number;
  maxElapsedMs: number;
}

export const DEFAULT_BACKOFF: Readonly<Backoff> = {
  initialDelayMs: 100,
  maxDelayMs: 5000,
  maxElapsedMs: Infinity,
};

/**
 * The delay before retry number `attempt` (0-based): exponential, capped at `maxDelayMs`, with
 * "equal jitter" (between half and all of it) so many agents reconnecting after a restart spread out.
 */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponential = backoff.initialDelayMs * 2 ** Math.min(attempt, 30);
  const capped = Math.min(backoff.maxDelayMs, exponential);
  return Math.round(capped / 2 + random() * (capped / 2));
}

/** The reason an aborted signal carries, as something throwable. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A signal that aborts when any of `signals` does, and a `dispose` that detaches it; written out
 * rather than `AbortSignal.any` to keep older runtimes working.
 */
export function linkSignals(...signals: (AbortSignal | undefined)[]): {
  signal: AbortSignal;
  dispose(): void;
} {
  const controller = new AbortController();
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const source of present) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    source.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const source of present) source.removeEventListener('abort', onAbort);
    },
  };
}
