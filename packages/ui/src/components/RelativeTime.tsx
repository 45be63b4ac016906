import { formatDateTime, formatDuration } from './time-format.js';
import { useNow } from './use-now.js';

/** When something happened, relative to now (`3m ago`), with the full date on hover. */
export function RelativeTime({ at }: { at: number }) {
  const now = useNow();
  const ago = now - at;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>
      {ago < 5000 ? 'just now' : `${formatDuration(ago)} ago`}
    </time>
  );
}
