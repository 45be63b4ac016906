import { ChartPatterns } from './ChartPatterns.js';
import { fillOf, type Series } from './series.js';

/** The series of a chart as swatches (colour and pattern) with their names. */
export function ChartLegend({ prefix, series }: { prefix: string; series: readonly Series[] }) {
  return (
    <ul className="chart-legend">
      {series.map((each) => (
        <li key={each.key}>
          <svg width="18" height="14" aria-hidden="true" focusable="false">
            <ChartPatterns prefix={`${prefix}-legend`} series={[each]} />
            <rect
              x="1"
              y="1"
              width="16"
              height="12"
              className={`chart-fill ${each.tone} ${each.pattern === 'outline' ? 'chart-outline' : ''}`}
              style={
                fillOf(`${prefix}-legend`, each) ? { fill: fillOf(`${prefix}-legend`, each) } : undefined
              }
            />
          </svg>
          {each.label}
        </li>
      ))}
    </ul>
  );
}
