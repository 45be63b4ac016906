import type { TimeoutAction } from 'gatehouse-hitl-core';
import { formatDateTime, formatDuration } from './time-format.js';
import { useNow } from './use-now.js';

const ACTION_TEXT: Record<TimeoutAction, string> = {
  deny: 'then denied',
  escalate: 'then escalated',
  proceed: 'then proceeds',
};

/** How long until a gate times out (`in 4m 12s`), ticking every second; `then …` says what happens. */
export function Countdown({
  at,
  action,
  className,
}: {
  /** The deadline in epoch ms; null means the gate waits indefinitely. */
  at: number | null;
  /** Adds what the deadline does, e.g. "then denied". */
  action?: TimeoutAction;
  className?: string;
}) {
  const now = useNow();
  if (at === null) return <span className={className}>No timeout</span>;
  const left = at - now;
  const soon = left < 5 * 60_000;
  const text = left > 0 ? `in ${formatDuration(left)}` : 'timed out';
  const classes = ['countdown', soon ? 'countdown-soon' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <span className={classes}>
      <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>
        {text}
      </time>
      {action && left > 0 ? `, ${ACTION_TEXT[action]}` : ''}
    </span>
  );
}
