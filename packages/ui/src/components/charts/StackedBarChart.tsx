import { useId, useRef } from 'react';
import { ChartFrame } from './ChartFrame.js';
import { fillOf, type Series } from './series.js';
import { useWidth } from './use-width.js';

/** One bar: a label for its x position and a value per series key. */
export interface StackedBar {
  key: string;
  /** Short axis label, e.g. "14:05". */
  label: string;
  /** Full label for titles and the data table, e.g. "26 Nov, 14:05–14:10". */
  longLabel: string;
  values: Record<string, number>;
}

const HEIGHT = 240;
const PAD = { top: 12, right: 12, bottom: 34, left: 40 };

function niceMax(value: number): number {
  if (value <= 4) return Math.max(1, value);
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => value / s <= 4) ?? 10 * magnitude;
  return Math.ceil(value / step) * step;
}

/**
 * Stacked bars in SVG with a text alternative: `role="img"` with a summary, a `<title>` per segment,
 * a legend of colour-plus-pattern swatches, and the numbers in a table under "Data table".
 */
export function StackedBarChart({
  title,
  summary,
  bars,
  series,
}: {
  title: string;
  summary: string;
  bars: readonly StackedBar[];
  series: readonly Series[];
}) {
  const prefix = useId().replace(/:/g, '');
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const totals = bars.map((bar) => series.reduce((sum, each) => sum + (bar.values[each.key] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = bars.length === 0 ? plotWidth : plotWidth / bars.length;
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const labelEvery = Math.max(1, Math.ceil(bars.length / Math.max(1, Math.floor(plotWidth / 56))));
  const y = (value: number) => PAD.top + plotHeight - (value / max) * plotHeight;
  const ticks = [0, max / 2, max].filter((tick, index, all) => all.indexOf(tick) === index);

  return (
    <ChartFrame
      prefix={prefix}
      boxRef={box}
      title={title}
      summary={summary}
      series={series}
      legend
      width={width}
      height={HEIGHT}
      corner="Period"
      trailing="Total"
      rows={bars.map((bar, index) => ({
        key: bar.key,
        label: bar.longLabel,
        cells: [...series.map((each) => bar.values[each.key] ?? 0), totals[index]],
      }))}
    >
      {ticks.map((tick) => (
        <g key={tick} className="chart-grid">
          <line x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
          <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="chart-axis-text">
            {Number.isInteger(tick) ? tick : tick.toFixed(1)}
          </text>
        </g>
      ))}
      {bars.map((bar, index) => {
        const x = PAD.left + index * slot + (slot - barWidth) / 2;
        let base = 0;
        return (
          <g key={bar.key}>
            {series.map((each) => {
              const value = bar.values[each.key] ?? 0;
              if (value === 0) return null;
              const top = y(base + value);
              const height = y(base) - top;
              base += value;
              const fill = fillOf(prefix, each);
              return (
                <rect
                  key={each.key}
                  x={x}
                  y={top}
                  width={barWidth}
                  height={Math.max(1, height)}
                  className={`chart-fill ${each.tone} ${each.pattern === 'outline' ? 'chart-outline' : ''} chart-segment`}
                  style={fill ? { fill } : undefined}
                >
                  <title>{`${bar.longLabel}: ${value} ${each.label.toLowerCase()}`}</title>
                </rect>
              );
            })}
            {index % labelEvery === 0 ? (
              <text
                x={x + barWidth / 2}
                y={HEIGHT - PAD.bottom + 16}
                textAnchor="middle"
                className="chart-axis-text"
              >
                {bar.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <line
        className="chart-axis"
        x1={PAD.left}
        x2={width - PAD.right}
        y1={PAD.top + plotHeight}
        y2={PAD.top + plotHeight}
      />
    </ChartFrame>
  );
}
