import type { PatternStats } from '../api/analysis.js';
import { rateText } from '../lib/whitelist-expiry.js';

/** The patterns the analysis reported, with detections, confirmed false positives and the rate. */
export function PatternCatalog({ patterns }: { patterns: readonly PatternStats[] }) {
  if (patterns.length === 0) return <p className="muted">No pattern has been detected in a run yet.</p>;
  return (
    <section
      className="table-scroll"
      aria-label="Patterns and their false-positive rates"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls on its own must be reachable by keyboard (WCAG scrollable region)
      tabIndex={0}
    >
      <table className="stack-on-phone">
        <caption className="visually-hidden">Patterns and their false-positive rates</caption>
        <thead>
          <tr>
            <th scope="col">Pattern</th>
            <th scope="col">Detections</th>
            <th scope="col">False positives</th>
            <th scope="col">False-positive rate</th>
            <th scope="col">Suppressed</th>
            <th scope="col">Learned examples</th>
          </tr>
        </thead>
        <tbody>
          {patterns.map((row) => (
            <tr key={row.pattern}>
              <td data-label="Pattern">
                <code>{row.pattern}</code>
              </td>
              <td data-label="Detections">{row.detections}</td>
              <td data-label="False positives">{row.falsePositives}</td>
              <td data-label="False-positive rate">
                {rateText(row.falsePositiveRate)}
                {row.alerting && <span className="badge badge-warn"> over 10 %</span>}
              </td>
              <td data-label="Suppressed">{row.suppressed}</td>
              <td data-label="Learned examples">{row.examples}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
