import type { StreamStatus } from '../api/events.js';

const TEXT: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
};

/** Whether an event stream is connected, as text (the dot only repeats it). */
export function LiveStatus({ status }: { status: StreamStatus }) {
  return (
    <span className={`live-status live-${status}`} role="status">
      <span className="live-dot" aria-hidden="true" />
      {TEXT[status]}
    </span>
  );
}
