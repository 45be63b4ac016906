import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { RelativeTime } from './RelativeTime.js';

/** N-of-M approval: how many distinct people approved so far, and who. */
export function ApprovalProgress({
  gate,
  nameOf,
  myId,
}: {
  gate: Pick<Gate, 'approvals' | 'requiredApprovals' | 'status'>;
  nameOf(id: string): string;
  myId: string;
}) {
  const { approvals, requiredApprovals } = gate;
  if (requiredApprovals <= 1) return null;
  const done = Math.min(approvals.length, requiredApprovals);
  return (
    <div className="approval-progress">
      <h3 id="approvals-heading">Approvals</h3>
      <p>
        <strong>
          {done} of {requiredApprovals}
        </strong>{' '}
        approvals
        {gate.status === 'pending' && done < requiredApprovals
          ? `; ${requiredApprovals - done} more needed`
          : ''}
      </p>
      <progress max={requiredApprovals} value={done} aria-labelledby="approvals-heading" />
      {approvals.length === 0 ? (
        <p className="muted">Nobody has approved yet.</p>
      ) : (
        <ul className="approvers">
          {approvals.map((vote) => (
            <li key={vote.by}>
              {nameOf(vote.by)}
              {vote.by === myId ? ' (you)' : ''} approved <RelativeTime at={vote.at} />
              {vote.reason ? `: ${vote.reason}` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
