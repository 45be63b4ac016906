import { useState } from 'react';
import { errorText } from '../../api/client.js';
import { type LearnedRuleDocument, revokeLearnedRule } from '../../api/trust.js';
import { Countdown } from '../../components/Countdown.js';
import { personId } from '../../lib/person-id.js';

/** One learned rule in force, which a tech lead may revoke. */
export function RuleRow({
  rule,
  agentName,
  personName,
  canDecide,
  onDone,
}: {
  rule: LearnedRuleDocument;
  agentName: (id: string) => string | null;
  personName: (id: string) => string;
  canDecide: boolean;
  onDone(message: string): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function revoke() {
    setBusy(true);
    setError(null);
    try {
      await revokeLearnedRule(rule.id);
      await onDone(`Revoked: ${rule.description} waits for a person again.`);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <tr>
      <td data-label="Covers">
        <code id={`learned-${rule.id}`}>{rule.description}</code>
      </td>
      <td data-label="Agent">{agentName(rule.agentId) ?? rule.agentId}</td>
      <td data-label="Accepted by">{personName(personId(rule.acceptedBy))}</td>
      <td data-label="Expires">{rule.expiresAt === null ? 'Never' : <Countdown at={rule.expiresAt} />}</td>
      {canDecide && (
        <td data-label="Action">
          <button
            type="button"
            className="danger"
            aria-describedby={`learned-${rule.id}`}
            disabled={busy}
            onClick={() => void revoke()}
          >
            Revoke
          </button>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </td>
      )}
    </tr>
  );
}
