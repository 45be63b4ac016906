import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sampleEventLoopDelay } from './event-loop-delay.js';

function holdEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a synchronous task the loop cannot leave
  }
}

describe('sampleEventLoopDelay', () => {
  it('reports a stall of the event loop as a late tick, and quiet ticks as near zero', async () => {
    const delays: number[] = [];
    const stop = sampleEventLoopDelay((seconds) => delays.push(seconds), 10);
    await sleep(60);
    holdEventLoop(150);
    await sleep(60);
    stop();
    expect(Math.max(...delays)).toBeGreaterThanOrEqual(0.13);
    expect(delays.filter((seconds) => seconds < 0.05).length).toBeGreaterThanOrEqual(3);
  });

  it('stops sampling when stopped', async () => {
    const delays: number[] = [];
    const stop = sampleEventLoopDelay((seconds) => delays.push(seconds), 5);
    await sleep(40);
    stop();
    const seen = delays.length;
    await sleep(40);
    expect(seen).toBeGreaterThan(0);
    expect(delays.length).toBe(seen);
  });
});
