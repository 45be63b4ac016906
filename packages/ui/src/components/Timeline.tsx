import type { ReactNode } from 'react';
import { formatDateTime } from './time-format.js';

/** One thing that happened, for a {@link Timeline}. */
export interface TimelineEntry {
  key: string;
  at: number;
  /** What kind of thing, in words ("Gate opened", "Paused"): the marker's text, never colour alone. */
  label: string;
  /** A CSS modifier for the marker, e.g. `gate`, `decision`, `intervention`, `confidence`. */
  tone: string;
  body: ReactNode;
}

/** Events in time order as an ordered list: when, what kind, and the details. */
export function Timeline({ entries, label }: { entries: readonly TimelineEntry[]; label: string }) {
  return (
    <ol className="timeline" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.key} className={`timeline-item tone-${entry.tone}`}>
          <div className="timeline-head">
            <span className="timeline-label">{entry.label}</span>
            <time dateTime={new Date(entry.at).toISOString()} className="muted">
              {formatDateTime(entry.at)}
            </time>
          </div>
          <div className="timeline-body">{entry.body}</div>
        </li>
      ))}
    </ol>
  );
}
