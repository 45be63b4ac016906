import { Link } from 'wouter';
import type { BatchItemResult } from '../api/gates.js';

/** One line of a batch decision's outcome, with the gate's title as it was when decided. */
export interface BatchOutcome extends BatchItemResult {
  title: string;
}

export interface BatchResultsProps {
  option: 'approve' | 'reject';
  outcomes: readonly BatchOutcome[];
  onDismiss(): void;
}

const DONE: Record<BatchResultsProps['option'], string> = { approve: 'approved', reject: 'rejected' };

function describe(outcome: BatchOutcome, option: BatchResultsProps['option']): string {
  if (!outcome.ok) return outcome.error?.message ?? 'no reason given';
  if (outcome.status === 'pending') return 'Approval recorded; the gate still needs more approvals';
  return outcome.status ? `Done: ${outcome.status}` : `Done: ${DONE[option]}`;
}

/** What a batch decision did to each gate: decided, or refused with the server's reason. */
export function BatchResults({ option, outcomes, onDismiss }: BatchResultsProps) {
  const refused = outcomes.filter((outcome) => !outcome.ok).length;
  const partial = outcomes.filter((outcome) => outcome.ok && outcome.status === 'pending').length;
  const done = outcomes.length - refused - partial;
  const summary = [
    `${done} ${DONE[option]}`,
    ...(partial > 0 ? [`${partial} still waiting for more approvals`] : []),
    `${refused} refused`,
  ].join(', ');
  return (
    <section
      className={`card batch-results ${refused > 0 ? 'has-refusals' : ''}`}
      aria-labelledby="batch-results-heading"
    >
      <div className="row batch-results-head">
        <h2 id="batch-results-heading">Batch result</h2>
        <p role="status" className="batch-results-summary">
          {summary}
        </p>
        <button type="button" className="button-link" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul className="batch-results-list">
        {outcomes.map((outcome) => (
          <li key={outcome.gateId} className={outcome.ok ? 'batch-ok' : 'batch-refused'}>
            <span className="batch-title">{outcome.title}</span>{' '}
            {!outcome.ok && <strong className="batch-refused-text">Refused: </strong>}
            <span className={outcome.ok ? 'batch-ok-text' : undefined}>{describe(outcome, option)}</span>
            {outcome.error && <span className="muted mono"> ({outcome.error.code})</span>}
            {!outcome.ok && (
              <>
                {' '}
                <Link href={`/gates/${outcome.gateId}`} aria-label={`Review ${outcome.title}`}>
                  Review
                </Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
