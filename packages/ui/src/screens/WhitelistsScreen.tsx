import { WHITELIST_JUSTIFICATION_MIN } from 'gatehouse-hitl-protocol/rules';
import { useCallback, useState } from 'react';
import {
  listPatterns,
  listWhitelists,
  type PatternStats,
  renewWhitelist,
  revokeWhitelist,
  type WhitelistEntry,
} from '../api/analysis.js';
import { errorText } from '../api/client.js';
import { useSession } from '../app/session.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Field } from '../components/Field.js';
import { PatternCatalog } from '../components/PatternCatalog.js';
import { Revealed } from '../components/Revealed.js';
import { formatDateTime } from '../components/time-format.js';
import { useAgentName } from '../components/use-agent-name.js';
import { useNow } from '../components/use-now.js';
import { usePersonNames } from '../components/use-person-names.js';
import { WhitelistForm } from '../components/WhitelistForm.js';
import { useResource } from '../lib/use-resource.js';
import { daysLeft, whitelistState } from '../lib/whitelist-expiry.js';

/** The role the API asks to add, renew or revoke an entry. */
const MANAGE_ROLE = 'tech_lead';

interface Loaded {
  whitelists: WhitelistEntry[];
  patterns: PatternStats[];
}

async function load(signal: AbortSignal): Promise<Loaded> {
  const [whitelists, patterns] = await Promise.all([listWhitelists(signal), listPatterns(signal)]);
  return { whitelists, patterns };
}

function ExpiryCell({ entry, now }: { entry: WhitelistEntry; now: number }) {
  const state = whitelistState(entry, now);
  return (
    <>
      {formatDateTime(entry.expiresAt)}{' '}
      {state === 'expired' && <span className="badge badge-warn">Expired: no longer suppresses</span>}
      {state === 'expiring' && (
        <span className="badge badge-warn">Expires in {daysLeft(entry.expiresAt, now)} days</span>
      )}
    </>
  );
}

/** Whose findings the entry covers: one agent, by name, or every agent. */
function AgentCell({ agentId }: { agentId: string | null }) {
  const name = useAgentName(agentId);
  return <>{name ?? 'Every agent'}</>;
}

function WhitelistTable({
  entries,
  canManage,
  nameOf,
  onRenew,
  onRevoke,
}: {
  entries: readonly WhitelistEntry[];
  canManage: boolean;
  nameOf(id: string): string;
  onRenew(entry: WhitelistEntry): void;
  onRevoke(entry: WhitelistEntry): void;
}) {
  const now = useNow();
  if (entries.length === 0) return <p className="muted">No whitelist entries.</p>;
  return (
    <section
      className="table-scroll"
      aria-label="Whitelist entries"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls on its own must be reachable by keyboard (WCAG scrollable region)
      tabIndex={0}
    >
      <table className="stack-on-phone">
        <caption className="visually-hidden">Whitelist entries</caption>
        <thead>
          <tr>
            <th scope="col">Pattern</th>
            <th scope="col">Scope</th>
            <th scope="col">Agents</th>
            <th scope="col">Justification</th>
            <th scope="col">Who</th>
            <th scope="col">When</th>
            <th scope="col">Expires</th>
            <th scope="col">Suppressed</th>
            {canManage && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td data-label="Pattern">
                <code>{entry.pattern}</code>
              </td>
              <td data-label="Scope">
                {entry.scope === 'global' ? (
                  'Global'
                ) : (
                  <>
                    File <code>{entry.path}</code>
                  </>
                )}
              </td>
              <td data-label="Agents">
                <AgentCell agentId={entry.agentId} />
              </td>
              <td data-label="Justification">
                <Revealed text={entry.justification} />
              </td>
              <td data-label="Who">{nameOf(entry.createdBy.replace(/^user:/, ''))}</td>
              <td data-label="When">{formatDateTime(entry.createdAt)}</td>
              <td data-label="Expires">
                <ExpiryCell entry={entry} now={now} />
              </td>
              <td data-label="Suppressed">{entry.suppressed}</td>
              {canManage && (
                <td data-label="Actions">
                  <div className="row">
                    <button type="button" onClick={() => onRenew(entry)}>
                      Renew<span className="visually-hidden"> {entry.pattern} entry</span>
                    </button>
                    <button type="button" onClick={() => onRevoke(entry)}>
                      Revoke<span className="visually-hidden"> {entry.pattern} entry</span>
                    </button>
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Whitelists: what people allowed, for how long, how much it suppressed; and each pattern's false-positive rate. */
export function WhitelistsScreen() {
  const session = useSession();
  const canManage = session.can(MANAGE_ROLE);
  const { resource, reload } = useResource('whitelists', useCallback(load, []));
  const [revoking, setRevoking] = useState<WhitelistEntry | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [renewing, setRenewing] = useState<WhitelistEntry | null>(null);
  const [renewJustification, setRenewJustification] = useState('');
  const [renewError, setRenewError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const entries = resource.status === 'ready' ? resource.value.whitelists : [];
  const nameOf = usePersonNames(entries.map((entry) => entry.createdBy.replace(/^user:/, '')));

  const renew = async () => {
    if (renewing === null) return;
    setBusy(true);
    try {
      const justification = renewJustification.trim();
      const entry = await renewWhitelist(renewing.id, justification === '' ? undefined : justification);
      setNotice(`Renewed the ${entry.pattern} entry until ${formatDateTime(entry.expiresAt)}.`);
      setRenewing(null);
      reload();
    } catch (caught) {
      setRenewError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (revoking === null) return;
    setBusy(true);
    try {
      await revokeWhitelist(revoking.id);
      setNotice(`Revoked the ${revoking.pattern} entry: the pattern is reported again.`);
      setRevoking(null);
      reload();
    } catch (caught) {
      setRevokeError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="page ops-page">
      <h1>Whitelists</h1>
      <p className="muted">
        An entry stops a pattern from being reported, in the files it names or everywhere, for 90 days; then a
        person reviews it again.
      </p>
      {notice && (
        <p className="notice ok" role="status">
          {notice}
        </p>
      )}
      {resource.status === 'loading' && <p role="status">Loading whitelists…</p>}
      {resource.status === 'error' && (
        <p className="notice error" role="alert">
          Could not load whitelists: {errorText(resource.error)}
        </p>
      )}
      {resource.status === 'ready' && (
        <>
          <section className="card" aria-labelledby="whitelist-entries-title">
            <h2 id="whitelist-entries-title">Entries</h2>
            <WhitelistTable
              entries={resource.value.whitelists}
              canManage={canManage}
              nameOf={nameOf}
              onRenew={(entry) => {
                setRenewError(null);
                setRenewJustification('');
                setRenewing(entry);
              }}
              onRevoke={(entry) => {
                setRevokeError(null);
                setRevoking(entry);
              }}
            />
          </section>
          {canManage ? (
            <section className="card" aria-labelledby="whitelist-add-title">
              <h2 id="whitelist-add-title">Add an entry</h2>
              <WhitelistForm
                patterns={resource.value.patterns.map((row) => row.pattern)}
                onCreated={(entry) => {
                  setNotice(`Whitelisted ${entry.pattern} until ${formatDateTime(entry.expiresAt)}.`);
                  reload();
                }}
              />
            </section>
          ) : (
            <p className="muted">Tech leads and admins add, renew and revoke entries.</p>
          )}
          <section className="card" aria-labelledby="pattern-catalog-title">
            <h2 id="pattern-catalog-title">Patterns</h2>
            <PatternCatalog patterns={resource.value.patterns} />
          </section>
        </>
      )}
      <ConfirmDialog
        open={renewing !== null}
        title="Renew this whitelist entry?"
        confirmLabel="Renew for 90 days"
        busy={busy}
        error={renewError}
        onConfirm={() => void renew()}
        onCancel={() => setRenewing(null)}
      >
        <p>
          Findings of <code>{renewing?.pattern}</code>{' '}
          {renewing?.scope === 'file' ? `in ${renewing.path} ` : ''}stay suppressed for 90 days from now.
        </p>
        <Field
          id="whitelist-renew-justification"
          label="New justification"
          hint={`Optional: the current one stays otherwise; at least ${WHITELIST_JUSTIFICATION_MIN} characters`}
        >
          {(wiring) => (
            <textarea
              {...wiring}
              rows={3}
              maxLength={2000}
              value={renewJustification}
              onChange={(event) => setRenewJustification(event.target.value)}
            />
          )}
        </Field>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this whitelist entry?"
        confirmLabel="Revoke"
        danger
        busy={busy}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Findings of <code>{revoking?.pattern}</code>{' '}
          {revoking?.scope === 'file' ? `in ${revoking.path} ` : ''}
          are reported again from now on.
        </p>
      </ConfirmDialog>
    </main>
  );
}
