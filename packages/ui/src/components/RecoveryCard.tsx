import type { RecoveryDocument } from 'gatehouse-hitl-protocol';
import { Link } from 'wouter';
import { isStagePassed, RECOVERY_STAGES, recoveryView } from '../lib/recovery-stage.js';
import { Revealed } from './Revealed.js';
import { formatDateTime } from './time-format.js';

/** One finding's recovery as seed 001 shows it: pattern, file, attempt n of 3, stage, attempts, why escalated. */
export function RecoveryCard({ recovery }: { recovery: RecoveryDocument }) {
  const view = recoveryView(recovery);
  return (
    <li className="recovery">
      <p>
        <strong>
          <Revealed text={recovery.pattern} multiline={false} />
        </strong>{' '}
        <span className="badge">{recovery.severity.toUpperCase()}</span> in{' '}
        <code>
          <Revealed text={recovery.file} multiline={false} />
          {recovery.line === null ? '' : `:${recovery.line}`}
        </code>
        {recovery.name ? (
          <>
            {' '}
            (<Revealed text={recovery.name} multiline={false} />)
          </>
        ) : null}
      </p>
      <p>
        Recovery {view.attemptText} · stage <strong>{view.stage ?? 'RESOLVED'}</strong>
      </p>
      <ol className="recovery-stages" aria-label="Recovery stages">
        {RECOVERY_STAGES.map((stage) => {
          const current = stage === view.stage;
          const state = current ? 'current' : isStagePassed(stage, view.stage) ? 'passed' : 'ahead';
          return (
            <li key={stage} className={`stage-${state}`} aria-current={current ? 'step' : undefined}>
              {stage}
              <span className="visually-hidden">
                {current ? ' (current)' : state === 'passed' ? ' (passed)' : ''}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="muted">{view.summary}</p>
      {view.escalationReasons.length > 0 && (
        <p>
          Escalated because {view.escalationReasons.join('; ')}.
          {recovery.gateId && (
            <>
              {' '}
              <Link href={`/gates/${encodeURIComponent(recovery.gateId)}`}>Open the escalation gate</Link>
            </>
          )}
        </p>
      )}
      {recovery.history.length > 0 && (
        <details>
          <summary>History of attempts ({recovery.history.length})</summary>
          <ol>
            {recovery.history.map((attempt, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: attempts only grow, oldest first
              <li key={index}>
                Attempt {attempt.attempt}, {formatDateTime(attempt.at)}
                {attempt.line === null ? '' : `, line ${attempt.line}`}: <Revealed text={attempt.message} />
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
