import { Link } from 'wouter';
import type { TrustProposalDocument } from '../../api/trust.js';
import { personId } from '../../lib/person-id.js';

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** Why a call was proposed as a rule: who approved it, over how long, and what replaying past gates shows. */
export function Evidence({
  proposal,
  personName,
}: {
  proposal: TrustProposalDocument;
  personName: (id: string) => string;
}) {
  const { evidence, replay } = proposal;
  return (
    <dl className="trust-evidence">
      <dt>Approvals</dt>
      <dd>
        {evidence.approvals} by {evidence.people.length} people (
        {evidence.people.map((person) => personName(personId(person))).join(', ')})
      </dd>
      <dt>Over</dt>
      <dd>{evidence.spanDays} days</dd>
      <dt>Median time to decision</dt>
      <dd>{seconds(evidence.medianDecisionMs)}</dd>
      <dt>Replay over {replay.windowDays} days</dt>
      <dd>
        Would have allowed {replay.wouldAllow} past gates; people rejected {replay.rejected}, steered{' '}
        {replay.steered} and edited {replay.edited} of them; {replay.failed} failed afterwards.
        {replay.gateIds[0] !== undefined && (
          <>
            {' '}
            Latest: <Link href={`/gates/${replay.gateIds[0]}`}>{replay.gateIds[0]}</Link>
          </>
        )}
      </dd>
    </dl>
  );
}

/** Why an agent earned one more autonomy level: its approved phase reviews, none turned down. */
export function AutonomyEvidence({
  proposal,
  personName,
}: {
  proposal: TrustProposalDocument;
  personName: (id: string) => string;
}) {
  const { evidence, replay } = proposal;
  return (
    <dl className="trust-evidence">
      <dt>Approved phase reviews</dt>
      <dd>
        {evidence.approvals} by {evidence.people.length} people (
        {evidence.people.map((person) => personName(personId(person))).join(', ')})
      </dd>
      <dt>Over</dt>
      <dd>{evidence.spanDays} days</dd>
      <dt>Median time to decision</dt>
      <dd>{seconds(evidence.medianDecisionMs)}</dd>
      <dt>Last {replay.windowDays} days</dt>
      <dd>
        No phase review rejected, steered or answered with changes, and no failure afterwards.
        {replay.gateIds[0] !== undefined && (
          <>
            {' '}
            Latest: <Link href={`/gates/${replay.gateIds[0]}`}>{replay.gateIds[0]}</Link>
          </>
        )}
      </dd>
    </dl>
  );
}
