import type { RecoveryDocument } from 'gatehouse-hitl-protocol';
import { useState } from 'react';
import type { LatestAnalysis, RunFinding } from '../api/analysis.js';
import { useSession } from '../app/session.js';
import { rateText } from '../lib/whitelist-expiry.js';
import { RecoveryCard } from './RecoveryCard.js';
import { findingPlace, ReportFalsePositive } from './ReportFalsePositive.js';
import { Revealed } from './Revealed.js';
import { formatDateTime } from './time-format.js';

function FindingsTable({
  analysis,
  onReport,
}: {
  analysis: LatestAnalysis;
  onReport: ((finding: RunFinding) => void) | null;
}) {
  if (analysis.findings.length === 0) return <p className="muted">The latest analysis found nothing.</p>;
  return (
    <section
      className="table-scroll"
      aria-label="Findings of the latest analysis"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls on its own must be reachable by keyboard (WCAG scrollable region)
      tabIndex={0}
    >
      <table className="stack-on-phone">
        <caption className="visually-hidden">Findings of the latest analysis</caption>
        <thead>
          <tr>
            <th scope="col">Pattern</th>
            <th scope="col">Severity</th>
            <th scope="col">Where</th>
            <th scope="col">Confidence</th>
            <th scope="col">What</th>
            {onReport && <th scope="col">Wrong?</th>}
          </tr>
        </thead>
        <tbody>
          {analysis.findings.map((finding) => (
            <tr key={finding.key}>
              <td data-label="Pattern">
                <code>
                  <Revealed text={finding.pattern} multiline={false} />
                </code>
              </td>
              <td data-label="Severity">{finding.severity.toUpperCase()}</td>
              <td data-label="Where">
                <code>
                  <Revealed text={finding.file} multiline={false} />
                  {finding.line === null ? '' : `:${finding.line}`}
                </code>
              </td>
              <td data-label="Confidence">{rateText(finding.confidence)}</td>
              <td data-label="What">
                <Revealed text={finding.message} />
              </td>
              {onReport && (
                <td data-label="Wrong?">
                  <button
                    type="button"
                    aria-label={`Report false positive: ${finding.pattern} in ${findingPlace(finding)}`}
                    onClick={() => onReport(finding)}
                  >
                    Report false positive
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A run's change analysis: the latest analysis's findings and each laziness finding's recovery. */
export function RunAnalysis({
  runId,
  analysis,
  recoveries,
}: {
  runId: string;
  analysis: LatestAnalysis | null;
  recoveries: readonly RecoveryDocument[];
}) {
  // Reporting opens a gate through the API, which asks for a developer or above.
  const canReport = useSession().can('developer');
  const [reporting, setReporting] = useState<RunFinding | null>(null);
  return (
    <section className="card" aria-labelledby="run-analysis-title">
      <h2 id="run-analysis-title">Change analysis</h2>
      {analysis === null ? (
        <p className="muted">No change of this run has been analysed yet.</p>
      ) : (
        <>
          <p className="muted">Latest analysis {formatDateTime(analysis.at)}.</p>
          <FindingsTable analysis={analysis} onReport={canReport ? setReporting : null} />
          {reporting && (
            <ReportFalsePositive
              key={reporting.key}
              runId={runId}
              finding={reporting}
              onDone={() => setReporting(null)}
            />
          )}
        </>
      )}
      <h3>Recoveries</h3>
      {recoveries.length === 0 ? (
        <p className="muted">No recovery: no laziness finding held the agent to a fix.</p>
      ) : (
        <ul className="recovery-list">
          {recoveries.map((recovery) => (
            <RecoveryCard key={recovery.key} recovery={recovery} />
          ))}
        </ul>
      )}
    </section>
  );
}
