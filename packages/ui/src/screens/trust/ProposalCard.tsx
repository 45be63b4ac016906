import { useId, useState } from 'react';
import { errorText } from '../../api/client.js';
import {
  acceptProposal,
  dismissProposal,
  type StandingScopeDocument,
  type TrustProposalDocument,
} from '../../api/trust.js';
import { AutonomyEvidence, Evidence } from './ProposalEvidence.js';
import { ScopeEditor } from './ScopeEditor.js';

const DAYS = [7, 14, 30, 60, 90];

/** One proposal and its evidence; a tech lead may accept it (a rule can be narrowed first) or dismiss it. */
export function ProposalCard({
  proposal,
  agentName,
  personName,
  canDecide,
  onDone,
}: {
  proposal: TrustProposalDocument;
  agentName: (id: string) => string | null;
  personName: (id: string) => string;
  canDecide: boolean;
  onDone(message: string): Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [scope, setScope] = useState<StandingScopeDocument | undefined>(undefined);
  const [days, setDays] = useState(30);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const agent = agentName(proposal.agentId) ?? proposal.agentId;

  async function act(work: () => Promise<string>) {
    setBusy(true);
    setError(null);
    try {
      await onDone(await work());
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  const step = proposal.kind === 'autonomy' ? proposal.autonomy : null;
  const accept = () =>
    act(async () => {
      if (step !== null) {
        await acceptProposal(proposal.id, {});
        return `Accepted: ${agent} now works at ${step.to} autonomy (was ${step.from}).`;
      }
      const rule = await acceptProposal(proposal.id, { ...(scope ? { scope } : {}), days });
      return `Accepted: ${rule?.description ?? proposal.description} for ${agent} goes ahead without a gate for ${days} days.`;
    });
  const dismiss = () =>
    act(async () => {
      await dismissProposal(proposal.id);
      return step !== null
        ? `Dismissed: ${step.from} → ${step.to} autonomy for ${agent} is not proposed again.`
        : `Dismissed: ${proposal.description} for ${agent} is not proposed again.`;
    });

  if (step !== null)
    return (
      <article className="card trust-proposal" aria-labelledby={headingId}>
        <h3 id={headingId}>
          Autonomy {step.from} → {step.to} for {agent}
        </h3>
        <AutonomyEvidence proposal={proposal} personName={personName} />
        {canDecide && (
          <div className="row">
            <button type="button" className="primary" disabled={busy} onClick={() => void accept()}>
              Accept
            </button>
            <button type="button" disabled={busy} onClick={() => void dismiss()}>
              Dismiss
            </button>
          </div>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </article>
    );

  return (
    <article className="card trust-proposal" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <code>{proposal.description}</code> for {agent}
      </h3>
      <Evidence proposal={proposal} personName={personName} />
      {canDecide && editing && (
        <>
          <ScopeEditor proposal={proposal} onChange={setScope} />
          <label className="field">
            Rule expires after
            <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {DAYS.map((n) => (
                <option key={n} value={n}>
                  {n} days
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {canDecide && (
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => void accept()}>
            {editing ? 'Accept as edited' : 'Accept'}
          </button>
          {!editing && (
            <button type="button" disabled={busy} onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => void dismiss()}>
            Dismiss
          </button>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
