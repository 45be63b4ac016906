import { type FormEvent, useState } from 'react';
import {
  type Agent,
  AUTONOMY_LEVELS,
  type AutonomyLevel,
  createAgent,
  issueAgentToken,
  listAgents,
  revokeAgentTokens,
} from '../api/admin.js';
import { errorText } from '../api/client.js';
import { useSession } from '../app/session.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Field } from '../components/Field.js';
import { OneTimeToken } from '../components/OneTimeToken.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { useFieldError } from '../components/use-field-error.js';
import { AUTONOMY_LABEL } from '../lib/run-labels.js';
import { useResource } from '../lib/use-resource.js';

/** Expert profiles with a built-in default autonomy; any lowercase word is accepted. */
const PROFILES = ['coder', 'debugger', 'researcher', 'writer', 'validator'];

type Notice = { ok: boolean; text: string } | null;

function CreateAgentForm({ onCreated }: { onCreated: (agent: Agent, token: string) => void }) {
  const [name, setName] = useState('');
  const [profile, setProfile] = useState('');
  const [autonomy, setAutonomy] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, setError, fail, errorFor } = useFieldError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setError({ field: 'name', text: 'Give the agent a name.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await createAgent({
        name: name.trim(),
        ...(profile.trim() ? { profile: profile.trim() } : {}),
        ...(autonomy ? { autonomy: autonomy as AutonomyLevel } : {}),
      });
      setName('');
      setProfile('');
      setAutonomy('');
      onCreated(created.agent, created.token);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="create-agent-title"
    >
      <h2 id="create-agent-title">Create an agent</h2>
      <div className="form-grid">
        <Field id="agent-name" label="Name" error={errorFor('name')}>
          {(wiring) => (
            <input {...wiring} value={name} onChange={(event) => setName(event.target.value)} required />
          )}
        </Field>
        <Field id="agent-profile" label="Profile (optional)" error={errorFor('profile')}>
          {(wiring) => (
            <>
              <input
                {...wiring}
                list="agent-profiles"
                value={profile}
                placeholder="coder"
                onChange={(event) => setProfile(event.target.value)}
              />
              <datalist id="agent-profiles">
                {PROFILES.map((each) => (
                  <option key={each} value={each} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field id="agent-autonomy" label="Autonomy">
          {(wiring) => (
            <select {...wiring} value={autonomy} onChange={(event) => setAutonomy(event.target.value)}>
              <option value="">From the profile</option>
              {AUTONOMY_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {AUTONOMY_LABEL[level]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {error && error.field !== 'name' && error.field !== 'profile' ? (
        <p className="notice error" role="alert">
          {error.text}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create agent'}
      </button>
    </form>
  );
}

/** Admins register agents, hand out their tokens (shown once) and revoke them. */
export function AgentsScreen() {
  const session = useSession();
  const isAdmin = session.can('admin');
  const { resource, reload } = useResource('agents', listAgents);
  const [token, setToken] = useState<{ owner: string; value: string } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Agent | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);

  async function issue(agent: Agent) {
    setBusy(agent.id);
    setNotice(null);
    try {
      const answer = await issueAgentToken(agent.id);
      setToken({ owner: agent.name, value: answer.token });
    } catch (error) {
      setNotice({ ok: false, text: errorText(error) });
    } finally {
      setBusy(null);
    }
  }

  async function revoke() {
    if (revoking === null) return;
    setBusy(revoking.id);
    setRevokeError(null);
    try {
      const answer = await revokeAgentTokens(revoking.id);
      setNotice({
        ok: true,
        text: `Revoked ${answer.revoked} token${answer.revoked === 1 ? '' : 's'} of ${revoking.name}; its next request fails.`,
      });
      setRevoking(null);
    } catch (error) {
      setRevokeError(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <main id="main" className="page ops-page">
      <h1>Agents</h1>
      {!isAdmin ? (
        <p className="notice info">Only admins manage agents and tokens; the server refuses anyone else.</p>
      ) : null}
      {token ? <OneTimeToken token={token.value} owner={token.owner} onDone={() => setToken(null)} /> : null}
      {notice ? (
        <p className={`notice ${notice.ok ? 'ok' : 'error'}`} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </p>
      ) : null}
      {isAdmin ? (
        <CreateAgentForm
          onCreated={(agent, value) => {
            setToken({ owner: agent.name, value });
            setNotice(null);
            reload();
          }}
        />
      ) : null}
      <section aria-labelledby="agents-list-title">
        <h2 id="agents-list-title">Registered agents</h2>
        {resource.status === 'loading' ? (
          <p role="status">Loading agents…</p>
        ) : resource.status === 'error' ? (
          <p className="notice error" role="alert">
            Could not load agents: {errorText(resource.error)}
          </p>
        ) : resource.value.length === 0 ? (
          <p className="notice info">No agents yet. Create one above; it gets its first token at once.</p>
        ) : (
          <div className="table-scroll">
            <table className="stack-on-phone">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Profile</th>
                  <th scope="col">Default autonomy</th>
                  <th scope="col">Created</th>
                  <th scope="col">Tokens</th>
                </tr>
              </thead>
              <tbody>
                {resource.value.map((agent) => (
                  <tr key={agent.id}>
                    <td data-label="Name">
                      <div>
                        {agent.name}
                        <div className="muted mono small">{agent.id}</div>
                      </div>
                    </td>
                    <td data-label="Profile">{agent.profile ?? <span className="muted">none</span>}</td>
                    <td data-label="Default autonomy">
                      {agent.autonomy ? (
                        AUTONOMY_LABEL[agent.autonomy]
                      ) : (
                        <span className="muted">from profile</span>
                      )}
                    </td>
                    <td data-label="Created">
                      <RelativeTime at={agent.createdAt} />
                    </td>
                    <td data-label="Tokens">
                      <div className="row">
                        <button
                          type="button"
                          onClick={() => void issue(agent)}
                          disabled={!isAdmin || busy !== null}
                          aria-label={`Issue token for ${agent.name}`}
                        >
                          Issue token
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => {
                            setRevokeError(null);
                            setRevoking(agent);
                          }}
                          disabled={!isAdmin || busy !== null}
                          aria-label={`Revoke tokens of ${agent.name}`}
                        >
                          Revoke tokens
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke every token of ${revoking?.name ?? 'this agent'}?`}
        confirmLabel="Revoke tokens"
        danger
        busy={busy !== null}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>
          The agent’s requests fail from its next one on, until it is given a new token. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </main>
  );
}
