/** A short duration such as `4m 12s` or `2d 3h`: the two largest units. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return '<1s';
  const total = Math.floor(ms / 1000);
  const units: [number, string][] = [
    [Math.floor(total / 86_400), 'd'],
    [Math.floor(total / 3600) % 24, 'h'],
    [Math.floor(total / 60) % 60, 'm'],
    [total % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n}${unit}`)
    .join(' ');
}

// One formatter for the page: building one per call is slow in long lists.
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A date and time in the reader's locale, e.g. for a `title` next to a relative time. */
export function formatDateTime(at: number): string {
  return DATE_TIME.format(at);
}
