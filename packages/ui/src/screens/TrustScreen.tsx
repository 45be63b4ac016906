import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../api/client.js';
import {
  type LearnedRuleDocument,
  listLearnedRules,
  listProposals,
  type TrustProposalDocument,
} from '../api/trust.js';
import { useSession } from '../app/session.js';
import { useAgentNames } from '../components/use-agent-names.js';
import { usePersonNames } from '../components/use-person-names.js';
import { personId } from '../lib/person-id.js';
import { ProposalCard } from './trust/ProposalCard.js';
import { RuleRow } from './trust/RuleRow.js';

type Load =
  | { status: 'loading' }
  | { status: 'ready'; proposals: TrustProposalDocument[]; rules: LearnedRuleDocument[] }
  | { status: 'error'; message: string };

/** Proposals from the decision history with their evidence and replay, and the rules people accepted. */
export function TrustScreen() {
  const session = useSession();
  const canDecide = session.can('tech_lead');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  const proposals = load.status === 'ready' ? load.proposals : [];
  const rules = load.status === 'ready' ? load.rules : [];
  const personName = usePersonNames([
    ...proposals.flatMap((p) => p.evidence.people.map(personId)),
    ...rules.map((rule) => personId(rule.acceptedBy)),
  ]);
  const agentName = useAgentNames([...proposals.map((p) => p.agentId), ...rules.map((rule) => rule.agentId)]);

  const refresh = useCallback(async (signal?: AbortSignal) => {
    try {
      const [nextProposals, nextRules] = await Promise.all([listProposals(signal), listLearnedRules(signal)]);
      setLoad({ status: 'ready', proposals: nextProposals, rules: nextRules });
    } catch (error) {
      if (signal?.aborted) return;
      setLoad({ status: 'error', message: errorText(error) });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);

  const done = async (message: string) => {
    await refresh();
    setNotice(message);
  };

  return (
    <main id="main" className="page trust-page">
      <h1>Trust</h1>
      <p className="muted">
        Calls that people approved again and again — by several people, over several days, never rejected,
        steered or edited — are proposed as rules that let this agent make them without a gate. Nothing
        changes until a tech lead or admin accepts one. Always-gated operations, calls that cannot be read in
        full, signed and multi-approver gates are never learned; a learned rule expires, and is revoked at
        once when someone rejects a call it covers. An agent whose phase reviews people approved the same way
        may be proposed one autonomy level up (never to full by default); a later rejected or steered phase
        review sets it back.
      </p>
      {notice && (
        <p className="notice ok" role="status">
          {notice}
        </p>
      )}
      {load.status === 'loading' && (
        <p role="status" className="muted">
          Loading proposals…
        </p>
      )}
      {load.status === 'error' && (
        <div className="notice error" role="alert">
          <p>Could not load the proposals: {load.message}</p>
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      )}
      {load.status === 'ready' && (
        <>
          <section aria-labelledby="trust-proposals">
            <h2 id="trust-proposals">Proposals</h2>
            {proposals.length === 0 && (
              <p className="muted">No proposals: nothing has been approved often enough yet.</p>
            )}
            {proposals.map((proposal) => (
              <ProposalCard
                key={proposal.id}
                proposal={proposal}
                agentName={agentName}
                personName={personName}
                canDecide={canDecide}
                onDone={done}
              />
            ))}
          </section>
          <section aria-labelledby="trust-rules">
            <h2 id="trust-rules">Learned rules</h2>
            {rules.length === 0 ? (
              <p className="muted">No learned rules in force.</p>
            ) : (
              <div className="table-scroll">
                <table className="rules-table">
                  <caption className="visually-hidden">Learned rules in force</caption>
                  <thead>
                    <tr>
                      <th scope="col">Covers</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Accepted by</th>
                      <th scope="col">Expires</th>
                      {canDecide && <th scope="col">Action</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {rules.map((rule) => (
                      <RuleRow
                        key={rule.id}
                        rule={rule}
                        agentName={agentName}
                        personName={personName}
                        canDecide={canDecide}
                        onDone={done}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </main>
  );
}
