import type { ReactNode } from 'react';
import type { Series } from './series.js';

/** Each textured pattern: its tile size, the mark drawn over the series colour, and a tilt. */
const PATTERNS: Partial<Record<Series['pattern'], { size: number; mark: ReactNode; rotate?: string }>> = {
  stripes: { size: 8, mark: <rect width="3" height="8" className="chart-mark" />, rotate: 'rotate(45)' },
  dots: { size: 7, mark: <circle cx="3.5" cy="3.5" r="1.6" className="chart-mark" /> },
  cross: { size: 8, mark: <path d="M0 4h8M4 0v8" className="chart-mark-line" /> },
  hlines: { size: 6, mark: <path d="M0 3h6" className="chart-mark-line" /> },
  vlines: { size: 6, mark: <path d="M3 0v6" className="chart-mark-line" /> },
};

/**
 * Pattern fills for a chart's series, so neighbouring bars differ by texture as well as colour.
 * Each pattern paints the series colour (via its CSS class) with marks in the surface colour.
 */
export function ChartPatterns({ prefix, series }: { prefix: string; series: readonly Series[] }) {
  return (
    <defs>
      {series.map((each) => {
        const pattern = PATTERNS[each.pattern];
        if (pattern === undefined) return null;
        const id = `${prefix}-${each.pattern}`;
        return (
          <pattern
            key={id}
            id={id}
            width={pattern.size}
            height={pattern.size}
            patternUnits="userSpaceOnUse"
            patternTransform={pattern.rotate}
          >
            <rect width={pattern.size} height={pattern.size} className={`chart-fill ${each.tone}`} />
            {pattern.mark}
          </pattern>
        );
      })}
    </defs>
  );
}
