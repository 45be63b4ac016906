import { useId, useRef } from 'react';
import { ChartFrame } from './ChartFrame.js';
import { fillOf, type Series } from './series.js';
import { useWidth } from './use-width.js';

/** One group of bars: a row label and a value per series (null = no data). */
export interface BarGroup {
  key: string;
  label: string;
  values: Record<string, number | null>;
}

const BAR = 14;
const GAP = 4;
const LABEL = 20;
const ROW_GAP = 14;
const VALUE_ROOM = 70;

/**
 * Horizontal grouped bars in SVG, each labelled with its value in text (so neither colour nor
 * length alone carries it), with a text alternative and a data table.
 */
export function HorizontalBarChart({
  title,
  summary,
  groups,
  series,
  max,
  format,
}: {
  title: string;
  summary: string;
  groups: readonly BarGroup[];
  series: readonly Series[];
  /** The value at full width; default the largest value. */
  max?: number;
  format: (value: number | null) => string;
}) {
  const prefix = useId().replace(/:/g, '');
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const largest = Math.max(
    0,
    ...groups.flatMap((group) => series.map((each) => group.values[each.key] ?? 0)),
  );
  const full = max ?? (largest > 0 ? largest : 1);
  const rowHeight = LABEL + series.length * (BAR + GAP) + ROW_GAP;
  const height = Math.max(rowHeight, groups.length * rowHeight);
  const plot = Math.max(40, width - VALUE_ROOM - 4);

  return (
    <ChartFrame
      prefix={prefix}
      boxRef={box}
      title={title}
      summary={summary}
      series={series}
      legend={series.length > 1}
      width={width}
      height={height}
      corner="Name"
      rows={groups.map((group) => ({
        key: group.key,
        label: group.label,
        cells: series.map((each) => format(group.values[each.key] ?? null)),
      }))}
    >
      {groups.map((group, row) => {
        const top = row * rowHeight;
        return (
          <g key={group.key}>
            <text x={0} y={top + 14} className="chart-label-text">
              {group.label}
            </text>
            {series.map((each, index) => {
              const value = group.values[each.key] ?? null;
              const y = top + LABEL + index * (BAR + GAP);
              const length = value === null ? 0 : Math.max(value > 0 ? 2 : 0, (value / full) * plot);
              const fill = fillOf(prefix, each);
              return (
                <g key={each.key}>
                  <rect x={0} y={y} width={plot} height={BAR} className="chart-track" />
                  {length > 0 ? (
                    <rect
                      x={0}
                      y={y}
                      width={length}
                      height={BAR}
                      className={`chart-fill ${each.tone} chart-segment`}
                      style={fill ? { fill } : undefined}
                    >
                      <title>{`${group.label}, ${each.label.toLowerCase()}: ${format(value)}`}</title>
                    </rect>
                  ) : null}
                  <text x={plot + 6} y={y + BAR / 2} dy="0.32em" className="chart-value-text">
                    {format(value)}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
    </ChartFrame>
  );
}
