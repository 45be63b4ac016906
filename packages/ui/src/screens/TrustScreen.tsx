import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { errorText } from '../api/client.js';
import {
  acceptProposal,
  dismissProposal,
  type LearnedRuleDocument,
  listLearnedRules,
  listProposals,
  revokeLearnedRule,
  type StandingScopeDocument,
  type TrustProposalDocument,
} from '../api/trust.js';
import { useSession } from '../app/session.js';
import { Countdown } from '../components/Countdown.js';
import { useAgentNames } from '../components/use-agent-names.js';
import { usePersonNames } from '../components/use-person-names.js';

type Load =
  | { status: 'loading' }
  | { status: 'ready'; proposals: TrustProposalDocument[]; rules: LearnedRuleDocument[] }
  | { status: 'error'; message: string };

const DAYS = [7, 14, 30, 60, 90];

/** Decisions record people as actors (`user:<id>`) or bare ids. */
function personId(actor: string): string {
  return actor.startsWith('user:') ? actor.slice(5) : actor;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function Evidence({
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
function AutonomyEvidence({
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

/** The narrower scopes a person may pick: a longer prefix or the exact command, a folder below the glob. */
function ScopeEditor({
  proposal,
  onChange,
}: {
  proposal: TrustProposalDocument;
  onChange(scope: StandingScopeDocument | undefined): void;
}) {
  const id = useId();
  const scope = proposal.scope;
  const start = scope.kind === 'prefix' ? scope.prefix : scope.kind === 'path' ? scope.glob : '';
  const [kind, setKind] = useState<'proposed' | 'command' | 'prefix' | 'path'>('proposed');
  const [text, setText] = useState(start);
  useEffect(() => {
    if (kind === 'proposed' || text.trim() === '') onChange(undefined);
    else if (kind === 'command') onChange({ kind: 'command', command: text.trim() });
    else if (kind === 'prefix') onChange({ kind: 'prefix', prefix: text.trim() });
    else onChange({ kind: 'path', glob: text.trim() });
  }, [kind, text, onChange]);
  const choices: [typeof kind, string][] =
    scope.kind === 'prefix'
      ? [
          ['proposed', `As proposed: ${proposal.description}`],
          ['command', 'Only this exact command'],
          ['prefix', 'Commands that start with these longer words'],
        ]
      : scope.kind === 'path'
        ? [
            ['proposed', `As proposed: ${proposal.description}`],
            ['path', 'Only files matching a narrower pattern'],
          ]
        : [['proposed', `As proposed: ${proposal.description}`]];
  return (
    <fieldset className="trust-scope">
      <legend>What the rule covers (it can only be narrowed)</legend>
      {choices.map(([value, label]) => (
        <label key={value} className="radio">
          <input
            type="radio"
            name={`${id}-kind`}
            value={value}
            checked={kind === value}
            onChange={() => setKind(value)}
          />{' '}
          {label}
        </label>
      ))}
      {kind !== 'proposed' && (
        <label className="field">
          {kind === 'path'
            ? 'Files matching'
            : kind === 'command'
              ? 'The exact command'
              : 'The command starts with'}
          <input type="text" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      )}
    </fieldset>
  );
}

function ProposalCard({
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

function RuleRow({
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
