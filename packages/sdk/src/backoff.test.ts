import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, linkSignals, sleep } from './backoff.js';

describe('backoffDelay', () => {
  const backoff = { initialDelayMs: 100, maxDelayMs: 5000, maxElapsedMs: Infinity };

  it('doubles from the initial delay and stays between half and all of it', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, backoff, () => 1))).toEqual([100, 200, 400, 800]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, backoff, () => 0))).toEqual([50, 100, 200, 400]);
  });

  it('never exceeds the cap, however many attempts', () => {
    for (const attempt of [6, 10, 50, 10_000]) {
      expect(backoffDelay(attempt, backoff, () => 1)).toBe(5000);
      expect(backoffDelay(attempt, backoff, () => 0)).toBe(2500);
    }
  });

  it('spreads retries with jitter', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4, DEFAULT_BACKOFF)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('sleep', () => {
  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects at once for an already aborted signal', async () => {
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('linkSignals', () => {
  it('aborts when any source aborts, with its reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals(a.signal, undefined, b.signal);
    b.abort('because');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('because');
  });

  it('no longer follows its sources once disposed', () => {
    const a = new AbortController();
    const linked = linkSignals(a.signal);
    linked.dispose();
    a.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
