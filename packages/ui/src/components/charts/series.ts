/** A data series: its words, and the colour and pattern it is drawn with (never colour alone). */
export interface Series {
  key: string;
  label: string;
  /** CSS class that sets the colour (see the charts section of styles.css). */
  tone: string;
  pattern: 'solid' | 'stripes' | 'dots' | 'cross' | 'hlines' | 'vlines' | 'outline';
}

/** Gate statuses in stacking order, from the bottom. */
export const OUTCOME_SERIES: readonly Series[] = [
  { key: 'approved', label: 'Approved', tone: 'tone-approved', pattern: 'solid' },
  { key: 'rejected', label: 'Rejected', tone: 'tone-rejected', pattern: 'stripes' },
  { key: 'steered', label: 'Steered', tone: 'tone-steered', pattern: 'dots' },
  { key: 'resolved', label: 'Resolved', tone: 'tone-resolved', pattern: 'cross' },
  { key: 'expired', label: 'Expired', tone: 'tone-expired', pattern: 'hlines' },
  { key: 'cancelled', label: 'Cancelled', tone: 'tone-cancelled', pattern: 'vlines' },
  { key: 'pending', label: 'Pending', tone: 'tone-pending', pattern: 'outline' },
];

/** The fill of a series: a pattern id inside the chart's own `<defs>`. */
export function fillOf(prefix: string, series: Series): string {
  return series.pattern === 'solid' || series.pattern === 'outline'
    ? ''
    : `url(#${prefix}-${series.pattern})`;
}
