import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { errorText } from '../api/client.js';
import { listRules, type RememberedRule, revokeRule } from '../api/rules.js';
import { useSession } from '../app/session.js';
import { Countdown } from '../components/Countdown.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { useAgentNames } from '../components/use-agent-names.js';
import { usePersonNames } from '../components/use-person-names.js';
import { personId } from '../lib/person-id.js';

type Load =
  | { status: 'loading' }
  | { status: 'ready'; rules: RememberedRule[] }
  | { status: 'error'; message: string };

function Scope({ rule, agentName }: { rule: RememberedRule; agentName: (id: string) => string | null }) {
  if (rule.scope === 'run' && rule.runId)
    return (
      <>
        This run: <Link href={`/runs/${rule.runId}`}>{rule.runId}</Link>
      </>
    );
  if (rule.scope === 'agent' && rule.agentId) return <>Agent: {agentName(rule.agentId) ?? rule.agentId}</>;
  return <>Everywhere (global)</>;
}

/** What the rule covers, with a word on rules made before scopes: they cover only calls with nothing to tell apart. */
function Covers({ rule }: { rule: RememberedRule }) {
  return (
    <>
      <code id={`rule-${rule.id}-covers`}>{rule.description}</code>
      {rule.match === null && (
        <span className="muted small">
          {' '}
          (made before scopes: only calls of {rule.tool} with no command or paths)
        </span>
      )}
      {rule.sourceGateId && (
        <>
          {' '}
          (<Link href={`/gates/${rule.sourceGateId}`}>from gate</Link>)
        </>
      )}
    </>
  );
}

function RevokeControl({ rule, onRevoked }: { rule: RememberedRule; onRevoked(): Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function revoke() {
    setBusy(true);
    setError(null);
    try {
      await revokeRule(rule.id);
      await onRevoked();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  if (!confirming)
    return (
      <button type="button" aria-describedby={`rule-${rule.id}-covers`} onClick={() => setConfirming(true)}>
        Revoke
      </button>
    );
  return (
    <fieldset className="rule-confirm">
      <legend className="visually-hidden">Confirm revoking the rule {rule.description}</legend>
      <p>Revoke? Calls it covers ({rule.description}) will need approval again.</p>
      <div className="row">
        <button type="button" className="danger" disabled={busy} onClick={() => void revoke()}>
          Yes, revoke
        </button>
        <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The "approve always" rules in force: what each covers, where, until when, and revoke. */
export function RulesScreen() {
  const session = useSession();
  const me = session.user;
  const canRevoke = session.can('developer');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  const rules = load.status === 'ready' ? load.rules : [];
  const personName = usePersonNames(rules.map((rule) => personId(rule.createdBy)));
  const agentName = useAgentNames(rules.flatMap((rule) => (rule.agentId ? [rule.agentId] : [])));

  const refresh = useCallback(async (signal?: AbortSignal) => {
    try {
      const list = await listRules(signal);
      setLoad({ status: 'ready', rules: list });
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

  const createdBy = (actor: string) => (personId(actor) === me.id ? 'you' : personName(actor));

  return (
    <main id="main" className="page rules-page">
      <h1>Remembered rules</h1>
      <p className="muted">
        Rules made by “Approve always”: later calls of the tool that the rule covers (a command prefix such as
        bash(npm test:*), an exact command, or files matching a pattern) go ahead without a gate until the
        rule expires or is revoked. Always-gated operations wait for a person whatever the rules say.
      </p>
      {notice && (
        <p className="notice ok" role="status">
          {notice}
        </p>
      )}
      {load.status === 'loading' && (
        <p role="status" className="muted">
          Loading rules…
        </p>
      )}
      {load.status === 'error' && (
        <div className="notice error" role="alert">
          <p>Could not load the rules: {load.message}</p>
          <button type="button" onClick={() => void refresh()}>
            Try again
          </button>
        </div>
      )}
      {load.status === 'ready' && rules.length === 0 && (
        <div className="card">
          <h2>No remembered rules</h2>
          <p className="muted">When someone chooses “Approve always” on a gate, the rule appears here.</p>
        </div>
      )}
      {load.status === 'ready' && rules.length > 0 && (
        <div className="table-scroll">
          <table className="rules-table">
            <caption className="visually-hidden">Remembered rules in force</caption>
            <thead>
              <tr>
                <th scope="col">Covers</th>
                <th scope="col">Where</th>
                <th scope="col">Created by</th>
                <th scope="col">Expires</th>
                {canRevoke && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id}>
                  <td data-label="Covers">
                    <Covers rule={rule} />
                  </td>
                  <td data-label="Where">
                    <Scope rule={rule} agentName={agentName} />
                  </td>
                  <td data-label="Created by">
                    {createdBy(rule.createdBy)}, <RelativeTime at={rule.createdAt} />
                  </td>
                  <td data-label="Expires">
                    {rule.expiresAt === null ? 'Never (until revoked)' : <Countdown at={rule.expiresAt} />}
                  </td>
                  {canRevoke && (
                    <td data-label="Action">
                      <RevokeControl
                        rule={rule}
                        onRevoked={async () => {
                          // The notice is announced once the list no longer shows the rule.
                          await refresh();
                          setNotice(`Revoked the rule ${rule.description}.`);
                        }}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
