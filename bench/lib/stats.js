// Small statistics over latency samples (milliseconds).

/** The p-th percentile (0–100) of an ascending array, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/** Mean, p50 and p99 of unsorted samples. */
export function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length);
  return { count: sorted.length, mean, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Milliseconds since `start` (a `process.hrtime.bigint()`), as a float. */
export function msSince(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Resolves after `ms`. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
