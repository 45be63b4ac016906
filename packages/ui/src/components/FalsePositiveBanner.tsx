import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { listPatterns } from '../api/analysis.js';
import { INBOX_EVENTS_PATH, type StreamEvent, useEventStream } from '../api/events.js';
import { rateText } from '../lib/whitelist-expiry.js';

interface Alert {
  pattern: string;
  rate: number | null;
}

function mergeAlert(alerts: readonly Alert[], next: Alert): Alert[] {
  return [...alerts.filter((alert) => alert.pattern !== next.pattern), next];
}

/**
 * Names each finding pattern whose false-positive rate is over 10 %, for the people who manage
 * whitelists: those already over on load, and a new one the moment the server announces it.
 */
export function FalsePositiveBanner() {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    const controller = new AbortController();
    listPatterns(controller.signal).then(
      (patterns) =>
        setAlerts((current) =>
          patterns
            .filter((row) => row.alerting)
            .reduce(
              (all, row) => mergeAlert(all, { pattern: row.pattern, rate: row.falsePositiveRate }),
              current,
            ),
        ),
      () => undefined,
    );
    return () => controller.abort();
  }, []);

  const onEvent = useCallback((event: StreamEvent) => {
    if (event.type !== 'analysis.false_positive_rate' || typeof event.data.pattern !== 'string') return;
    const rate = typeof event.data.rate === 'number' ? event.data.rate : null;
    const pattern = event.data.pattern;
    setAlerts((current) => mergeAlert(current, { pattern, rate }));
    setDismissed((current) => new Set([...current].filter((each) => each !== pattern)));
  }, []);
  useEventStream(INBOX_EVENTS_PATH, onEvent);

  const shown = alerts.filter((alert) => !dismissed.has(alert.pattern));
  if (shown.length === 0) return null;
  return (
    <section className="fp-banner" aria-label="False-positive alerts">
      {shown.map((alert) => (
        <div key={alert.pattern} className="notice warn row" role="status">
          <p>
            The pattern <code>{alert.pattern}</code> has a false-positive rate of {rateText(alert.rate)}, over
            10 %. <Link href="/whitelists">Review its whitelists and detections</Link>.
          </p>
          <button
            type="button"
            className="button-link"
            onClick={() => setDismissed((current) => new Set([...current, alert.pattern]))}
          >
            Dismiss<span className="visually-hidden"> the {alert.pattern} alert</span>
          </button>
        </div>
      ))}
    </section>
  );
}
