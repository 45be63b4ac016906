import { useId, useRef } from 'react';
import { ChartLegend } from './ChartLegend.js';
import { ChartPatterns } from './ChartPatterns.js';
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
    <figure className="chart">
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      {series.length > 1 ? <ChartLegend prefix={prefix} series={series} /> : null}
      <div ref={box} className="chart-box">
        <svg width={width} height={height} role="img" aria-labelledby={`${prefix}-title ${prefix}-desc`}>
          <title id={`${prefix}-title`}>{title}</title>
          <desc id={`${prefix}-desc`}>{summary}</desc>
          <ChartPatterns prefix={prefix} series={series} />
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
        </svg>
      </div>
      <details className="chart-data">
        <summary>Data table: {title}</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                {series.map((each) => (
                  <th key={each.key} scope="col">
                    {each.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={group.key}>
                  <th scope="row">{group.label}</th>
                  {series.map((each) => (
                    <td key={each.key}>{format(group.values[each.key] ?? null)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
