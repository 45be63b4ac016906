import type { Series } from './series.js';

/**
 * Pattern fills for a chart's series, so neighbouring bars differ by texture as well as colour.
 * Each pattern paints the series colour (via its CSS class) with marks in the surface colour.
 */
export function ChartPatterns({ prefix, series }: { prefix: string; series: readonly Series[] }) {
  return (
    <defs>
      {series.map((each) => {
        const id = `${prefix}-${each.pattern}`;
        switch (each.pattern) {
          case 'stripes':
            return (
              <pattern
                key={id}
                id={id}
                width="8"
                height="8"
                patternUnits="userSpaceOnUse"
                patternTransform="rotate(45)"
              >
                <rect width="8" height="8" className={`chart-fill ${each.tone}`} />
                <rect width="3" height="8" className="chart-mark" />
              </pattern>
            );
          case 'dots':
            return (
              <pattern key={id} id={id} width="7" height="7" patternUnits="userSpaceOnUse">
                <rect width="7" height="7" className={`chart-fill ${each.tone}`} />
                <circle cx="3.5" cy="3.5" r="1.6" className="chart-mark" />
              </pattern>
            );
          case 'cross':
            return (
              <pattern key={id} id={id} width="8" height="8" patternUnits="userSpaceOnUse">
                <rect width="8" height="8" className={`chart-fill ${each.tone}`} />
                <path d="M0 4h8M4 0v8" className="chart-mark-line" />
              </pattern>
            );
          case 'hlines':
            return (
              <pattern key={id} id={id} width="6" height="6" patternUnits="userSpaceOnUse">
                <rect width="6" height="6" className={`chart-fill ${each.tone}`} />
                <path d="M0 3h6" className="chart-mark-line" />
              </pattern>
            );
          case 'vlines':
            return (
              <pattern key={id} id={id} width="6" height="6" patternUnits="userSpaceOnUse">
                <rect width="6" height="6" className={`chart-fill ${each.tone}`} />
                <path d="M3 0v6" className="chart-mark-line" />
              </pattern>
            );
          default:
            return null;
        }
      })}
    </defs>
  );
}
