/** A tiny Prometheus text-format registry: counters, gauges and histograms with labels. */

type Labels = Record<string, string>;

function escapeLabel(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

function labelText(labels: Labels, extra?: Labels): string {
  const all = { ...labels, ...extra };
  const parts = Object.keys(all)
    .sort()
    .map((key) => `${key}="${escapeLabel(all[key] ?? '')}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** One series' key: each label's name and value, in name order (counted on every request). */
function keyOf(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length > 1) names.sort();
  // Each name and value is prefixed with its length, so no text inside one can mimic a boundary.
  let key = '';
  for (const name of names) {
    const value = labels[name] ?? '';
    key += `${name.length}:${name}${value.length}:${value}`;
  }
  return key;
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  return String(value);
}

export interface Counter {
  inc(labels?: Labels, by?: number): void;
  get(labels?: Labels): number;
  /** Every label set counted so far, with its count. */
  entries(): { labels: Labels; value: number }[];
  render(): string;
}

/** A monotonically increasing count per label set. */
export function createCounter(name: string, help: string): Counter {
  const values = new Map<string, { labels: Labels; value: number }>();
  return {
    inc(labels = {}, by = 1) {
      const key = keyOf(labels);
      const entry = values.get(key) ?? { labels, value: 0 };
      entry.value += by;
      values.set(key, entry);
    },
    get(labels = {}) {
      return values.get(keyOf(labels))?.value ?? 0;
    },
    entries() {
      return [...values.values()].map(({ labels, value }) => ({ labels, value }));
    },
    render() {
      return renderCounter(name, help, values.values());
    },
  };
}

/** A counter's text from its label sets and counts, wherever they are kept. */
export function renderCounter(
  name: string,
  help: string,
  entries: Iterable<{ labels: Labels; value: number }>,
): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} counter`];
  for (const { labels, value } of entries) lines.push(`${name}${labelText(labels)} ${formatNumber(value)}`);
  return lines.join('\n');
}

/** One gauge value, computed when rendered. */
export function renderGauge(name: string, help: string, value: number): string {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${formatNumber(value)}`].join('\n');
}

export interface Histogram {
  observe(value: number, labels?: Labels): void;
  /** Each label set's number of observations: a counter of the same events, kept once. */
  counts(): { labels: Labels; value: number }[];
  render(): string;
}

/** Cumulative buckets, sum and count per label set; an observation counts once, in its own bucket. */
export function createHistogram(name: string, help: string, buckets: readonly number[]): Histogram {
  const sorted = [...buckets].sort((a, b) => a - b);
  // counts[i] holds observations in (sorted[i - 1], sorted[i]]; those above the last bound only in count.
  const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  return {
    observe(value, labels = {}) {
      const key = keyOf(labels);
      let entry = series.get(key);
      if (entry === undefined) {
        entry = { labels, counts: sorted.map(() => 0), sum: 0, count: 0 };
        series.set(key, entry);
      }
      const index = sorted.findIndex((bound) => value <= bound);
      if (index !== -1) entry.counts[index] = (entry.counts[index] ?? 0) + 1;
      entry.sum += value;
      entry.count += 1;
    },
    counts() {
      return [...series.values()].map(({ labels, count }) => ({ labels, value: count }));
    },
    render() {
      const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
      for (const { labels, counts, sum, count } of series.values()) {
        let cumulative = 0;
        sorted.forEach((bound, index) => {
          cumulative += counts[index] ?? 0;
          lines.push(`${name}_bucket${labelText(labels, { le: formatNumber(bound) })} ${cumulative}`);
        });
        lines.push(`${name}_bucket${labelText(labels, { le: '+Inf' })} ${count}`);
        lines.push(`${name}_sum${labelText(labels)} ${formatNumber(sum)}`);
        lines.push(`${name}_count${labelText(labels)} ${count}`);
      }
      return lines.join('\n');
    },
  };
}
