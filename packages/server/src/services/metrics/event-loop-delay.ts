import { performance } from 'node:perf_hooks';

/** How often the event loop is sampled: a stall this long or longer is always seen. */
export const EVENT_LOOP_SAMPLE_MS = 20;

/** What the event-loop delay figures mean, for /metrics and the meter alike. */
export const EVENT_LOOP_DELAY_HELP = `How late the event loop ran a timer sampled every ${EVENT_LOOP_SAMPLE_MS} ms: a stall shows as a late sample.`;

/**
 * Calls `onDelay` with how late (in seconds) the event loop ran a timer, every `intervalMs`. Anything
 * that holds the loop (a long synchronous task, an fsync on the main thread) makes the next tick late
 * by about as long. The timer does not keep the process alive; the returned function stops it.
 */
export function sampleEventLoopDelay(
  onDelay: (seconds: number) => void,
  intervalMs = EVENT_LOOP_SAMPLE_MS,
): () => void {
  let due = performance.now() + intervalMs;
  let timer = setTimeout(tick, intervalMs).unref();
  function tick() {
    const now = performance.now();
    onDelay(Math.max(0, now - due) / 1000);
    due = now + intervalMs;
    timer = setTimeout(tick, intervalMs).unref();
  }
  return () => clearTimeout(timer);
}
