import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';
import { type E2e, UI_DIST, withE2e } from './harness.js';
import { measureScroll } from './scroll-measure.js';

const e2e = withE2e();

/** First load of the built app, all JavaScript together, gzipped. */
const JS_BUDGET_BYTES = 300 * 1024;
const PENDING = 1000;
/**
 * Rows a virtualised list keeps in the DOM at 1280×800: those in view plus some overscan. A list
 * that renders every pending gate has 1,000.
 */
const MAX_ROWS_IN_DOM = 100;
/**
 * Smoothness while scrolling through all 1,000 rows 300 px a frame (18,000 px/s at 60 Hz, a hard
 * flick: about four new rows every frame). At 60 Hz a frame is 17 ms: a p95 under 50 ms allows two
 * dropped frames now and then, while a list that lays out or re-renders hundreds of rows per scroll
 * step takes 100 ms and more a frame. A single task over 200 ms is a freeze a person sees.
 */
const MAX_P95_FRAME_MS = 50;
const MAX_LONG_TASK_MS = 200;
/**
 * The same judged on the CPU the renderer's main thread really used (Chromium's trace, with its
 * own overhead), which other processes cannot inflate: at most 12 ms of work per frame on average,
 * so a frame still fits in 17 ms, and no single task needing 50 ms (three frames) of CPU.
 * Rendering hundreds of rows a frame fails both.
 */
const MAX_CPU_PER_FRAME_MS = 12;
const MAX_TASK_CPU_MS = 50;
/**
 * Wall time over CPU time of the main thread's tasks above which the machine, not the page, set
 * the pace: the renderer waited for a core more than it ran.
 */
const CONTENDED_RATIO = 2;
const SCROLL_STEP_PX = 300;
const SCROLL_PASSES = 3;
const ROW_SELECTOR = 'main a[href^="/gates/"]';

function gzippedSize(file: string): number {
  return gzipSync(readFileSync(file)).length;
}

async function openBulkGates(env: E2e): Promise<void> {
  const numbers = Array.from({ length: PENDING }, (_, i) => i);
  const risks = ['low', 'medium', 'high', 'critical'];
  // Eight at a time: fast, and bounded so the server is not flooded.
  for (let start = 0; start < numbers.length; start += 8) {
    await Promise.all(
      numbers.slice(start, start + 8).map((n) =>
        env.openGate({
          tool: 'shell_execute',
          args: { command: `make clean-${n}` },
          title: `Bulk gate ${String(n).padStart(4, '0')}`,
          risk: risks[n % risks.length],
        }),
      ),
    );
  }
}

const rowLinks = (page: Page) => page.locator(ROW_SELECTOR);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('budgets', () => {
  it('loads at most 300 KB of gzipped JavaScript', () => {
    const html = readFileSync(join(UI_DIST, 'index.html'), 'utf8');
    const assets = join(UI_DIST, 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    // What index.html loads must be among them, so the sum below covers the first load.
    const loaded = [...html.matchAll(/(?:src|href)="\/?assets\/([^"]+\.js)"/g)].map((m) => m[1]);
    expect(loaded.length).toBeGreaterThan(0);
    for (const name of loaded) expect(scripts).toContain(name);

    const total = scripts.reduce((sum, name) => sum + gzippedSize(join(assets, name)), 0);
    console.info(`web app JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${scripts.length} file(s)`);
    expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });

  it('keeps 1,000 pending gates to a window of rows and scrolls them without jank', async () => {
    const env = e2e();
    await openBulkGates(env);
    const page = await env.pageAs(env.developer);
    const loadStarted = Date.now();
    await page.goto('/inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor({ timeout: 60_000 });
    await page
      .getByText(/\b1,?000\b/)
      .first()
      .waitFor({ timeout: 60_000 });
    const loadMs = Date.now() - loadStarted;
    const rowsBefore = await eventually(async () => (await rowLinks(page).count()) || false, {
      what: 'inbox rows appear',
    });
    expect(rowsBefore).toBeLessThanOrEqual(MAX_ROWS_IN_DOM);
    const firstBefore = await rowLinks(page).first().getAttribute('href');

    // Let the first render and the live stream settle before measuring.
    await page.waitForTimeout(1000);
    // Several people share this two-core machine: a pass slowed down by other processes is run
    // again (down, up, down). Every pass must be cheap on the CPU; at least one must be smooth on
    // screen, unless the trace shows that in each the renderer mostly waited for a core.
    const passes: string[] = [];
    let smooth = false;
    let everyPassContended = true;
    for (let pass = 0; pass < SCROLL_PASSES && !smooth; pass += 1) {
      const down = pass % 2 === 0;
      const measure = await measureScroll(env.browser, page, {
        rowSelector: ROW_SELECTOR,
        stepPx: SCROLL_STEP_PX,
        down,
      });
      const { busyMs, cpuMs, longestTaskCpuMs } = measure.mainThread;
      const p95 = percentile(measure.frames, 95);
      const longest = Math.max(0, ...measure.longTasks);
      const cpuPerFrame = cpuMs / Math.max(1, measure.frames.length);
      const contention = busyMs / Math.max(1, cpuMs);
      passes.push(
        `${down ? 'down' : 'up'}: ${measure.frames.length} frames, p95 ${p95.toFixed(1)} ms, longest task ` +
          `${longest.toFixed(0)} ms; main thread ${cpuPerFrame.toFixed(1)} ms CPU a frame, longest ` +
          `${longestTaskCpuMs.toFixed(0)} ms CPU, ${contention.toFixed(1)}× wall/CPU`,
      );
      expect(measure.scrollMax).toBeGreaterThan(10 * 800);
      expect(measure.scrolledTo).toBeCloseTo(down ? measure.scrollMax : 0, -1);
      expect(measure.mostRows).toBeLessThanOrEqual(MAX_ROWS_IN_DOM);
      expect(cpuPerFrame, passes.at(-1)).toBeLessThanOrEqual(MAX_CPU_PER_FRAME_MS);
      expect(longestTaskCpuMs, passes.at(-1)).toBeLessThanOrEqual(MAX_TASK_CPU_MS);
      smooth = p95 <= MAX_P95_FRAME_MS && longest <= MAX_LONG_TASK_MS;
      if (contention <= CONTENDED_RATIO) everyPassContended = false;
    }
    const verdict = smooth ? 'smooth' : everyPassContended ? 'machine busy, judged by CPU' : 'janky';
    console.info(`inbox with ${PENDING} gates: shown after ${loadMs} ms; ${verdict}: ${passes.join('; ')}`);
    expect(smooth || everyPassContended, `no pass was smooth on screen: ${passes.join('; ')}`).toBe(true);
    // Away from the top the list shows other gates: the window moved with the scroll.
    await measureScroll(env.browser, page, { rowSelector: ROW_SELECTOR, stepPx: 5000, down: true });
    expect(await rowLinks(page).first().getAttribute('href')).not.toBe(firstBefore);
  }, 240_000);
});
