import type { Browser, Page } from 'playwright-core';

/** What one programmatic scroll through a list cost, seen from the page and from the renderer. */
export interface ScrollMeasure {
  /** Time between animation frames, ms (wall clock, in the page). */
  frames: number[];
  /** Long tasks the page reported (PerformanceObserver 'longtask'), ms. */
  longTasks: number[];
  scrolledTo: number;
  scrollMax: number;
  /** The most matching rows in the DOM at any frame. */
  mostRows: number;
  /** The renderer main thread during the scroll: wall time inside tasks and CPU time they used, ms. */
  mainThread: { windowMs: number; busyMs: number; cpuMs: number; longestTaskCpuMs: number };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
}

const START = 'e2e-scroll-start';
const END = 'e2e-scroll-end';

/**
 * Sums the renderer main thread's top-level tasks between the two time stamps the page left in
 * the trace: wall time (`dur`) and thread CPU time (`tdur`).
 */
function mainThreadCost(trace: Buffer): ScrollMeasure['mainThread'] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const stamp = (message: string) =>
    events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === message);
  const start = stamp(START);
  const end = stamp(END);
  if (start === undefined || end === undefined) throw new Error('the trace holds no scroll time stamps');
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === start.pid && e.tid === start.tid)
    .filter((e) => e.ts >= start.ts && e.ts <= end.ts)
    .sort((a, b) => a.ts - b.ts);
  let busy = 0;
  let cpu = 0;
  let longest = 0;
  let coveredUntil = -1;
  for (const task of tasks) {
    if (task.ts < coveredUntil) continue; // nested inside the previous top-level task
    coveredUntil = task.ts + (task.dur ?? 0);
    busy += task.dur ?? 0;
    cpu += task.tdur ?? task.dur ?? 0;
    longest = Math.max(longest, task.tdur ?? task.dur ?? 0);
  }
  return {
    windowMs: (end.ts - start.ts) / 1000,
    busyMs: busy / 1000,
    cpuMs: cpu / 1000,
    longestTaskCpuMs: longest / 1000,
  };
}

/**
 * Scrolls the scroll container of the rows matching `rowSelector` to its bottom (or back to the
 * top) by `stepPx` every animation frame, while Chromium traces the renderer. A fixed step per
 * frame keeps the work per frame the same however fast the machine draws; at most `maxFrames`.
 */
export async function measureScroll(
  browser: Browser,
  page: Page,
  options: { rowSelector: string; stepPx: number; down: boolean; maxFrames?: number },
): Promise<ScrollMeasure> {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  let inPage: Omit<ScrollMeasure, 'mainThread'>;
  let trace: Buffer;
  try {
    inPage = await page.evaluate(
      async ({ rowSelector, stepPx, down, maxFrames, marks }) => {
        const isScroller = (el: HTMLElement) =>
          /(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 10;
        let scroller = document.querySelector<HTMLElement>(rowSelector)?.parentElement ?? null;
        while (scroller !== null && scroller !== document.body && !isScroller(scroller))
          scroller = scroller.parentElement;
        const target = (
          scroller === null || scroller === document.body ? document.scrollingElement : scroller
        ) as HTMLElement;
        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        });
        observer.observe({ type: 'longtask' });
        // Rows measured on the way may change the list's height: aim at the current bottom.
        const bottom = () => target.scrollHeight - target.clientHeight;
        const arrived = () => (down ? target.scrollTop >= bottom() - 2 : target.scrollTop <= 0);
        const rows = () => document.querySelectorAll(rowSelector).length;
        const frames: number[] = [];
        let mostRows = rows();
        console.timeStamp(marks.start);
        await new Promise<void>((resolve) => {
          let last = 0;
          const step = (now: number) => {
            if (last !== 0) frames.push(now - last);
            last = now;
            mostRows = Math.max(mostRows, rows());
            if (arrived() || frames.length >= maxFrames) {
              resolve();
              return;
            }
            target.scrollTop = down
              ? Math.min(bottom(), target.scrollTop + stepPx)
              : Math.max(0, target.scrollTop - stepPx);
            requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        });
        console.timeStamp(marks.end);
        const scrolledTo = target.scrollTop;
        const scrollMax = bottom();
        // Long tasks are reported after they end; give the last one a moment to arrive.
        await new Promise((resolve) => setTimeout(resolve, 300));
        observer.disconnect();
        return { frames, longTasks, scrolledTo, scrollMax, mostRows };
      },
      { maxFrames: 2000, ...options, marks: { start: START, end: END } },
    );
  } finally {
    trace = await browser.stopTracing();
  }
  return { ...inPage, mainThread: mainThreadCost(trace) };
}
