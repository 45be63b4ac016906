import type { ReactNode, RefObject } from 'react';
import { ChartLegend } from './ChartLegend.js';
import { ChartPatterns } from './ChartPatterns.js';
import type { Series } from './series.js';

/** One row of a chart's data table: its label, then a cell per column after the first. */
export interface ChartTableRow {
  key: string;
  label: string;
  cells: readonly ReactNode[];
}

/**
 * What every chart shares: the caption, the legend, an SVG with a text alternative (`role="img"`,
 * `<title>` and `<desc>`) and the series' pattern fills, and the numbers in a table under "Data table".
 */
export function ChartFrame({
  prefix,
  boxRef,
  title,
  summary,
  series,
  legend,
  width,
  height,
  corner,
  trailing,
  rows,
  children,
}: {
  /** Unique per chart; prefixes the SVG's ids. */
  prefix: string;
  boxRef: RefObject<HTMLDivElement | null>;
  title: string;
  summary: string;
  series: readonly Series[];
  legend: boolean;
  width: number;
  height: number;
  /** Header of the data table's first column. */
  corner: string;
  /** Header of a column after the series' columns, if any. */
  trailing?: string;
  rows: readonly ChartTableRow[];
  /** The marks, drawn inside the SVG. */
  children: ReactNode;
}) {
  return (
    <figure className="chart">
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      {legend ? <ChartLegend prefix={prefix} series={series} /> : null}
      <div ref={boxRef} className="chart-box">
        <svg width={width} height={height} role="img" aria-labelledby={`${prefix}-title ${prefix}-desc`}>
          <title id={`${prefix}-title`}>{title}</title>
          <desc id={`${prefix}-desc`}>{summary}</desc>
          <ChartPatterns prefix={prefix} series={series} />
          {children}
        </svg>
      </div>
      <details className="chart-data">
        <summary>Data table: {title}</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{corner}</th>
                {series.map((each) => (
                  <th key={each.key} scope="col">
                    {each.label}
                  </th>
                ))}
                {trailing === undefined ? null : <th scope="col">{trailing}</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.label}</th>
                  {row.cells.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the cells are columns in a fixed order
                    <td key={index}>{cell}</td>
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
