import { NOTIFICATION_CHANNELS } from 'gatehouse-hitl-protocol';
import { type FormEvent, useCallback, useState } from 'react';
import { errorText } from '../api/client.js';
import {
  createNotificationRule,
  deleteNotificationRule,
  listNotificationRules,
  listNotifications,
  type NotificationDocument,
  type NotificationRuleDocument,
  setNotificationRuleEnabled,
} from '../api/notifications.js';
import { useSession } from '../app/session.js';
import { formatDateTime } from '../components/time-format.js';
import { usePersonNames } from '../components/use-person-names.js';
import { useResource } from '../lib/use-resource.js';

/** Rules are for tech leads and admins, as the API asks. */
const MANAGE_ROLE = 'tech_lead';
const STATUSES = ['', 'pending', 'sent', 'failed'] as const;
const RISKS = ['low', 'medium', 'high', 'critical'] as const;
const ROLES = ['developer', 'tech_lead', 'admin'] as const;
const CHANNELS = NOTIFICATION_CHANNELS;
const any = (items: readonly string[]) => (items.length === 0 ? 'Any' : items.join(', '));

function DeliveryTable({ items, nameOf }: { items: NotificationDocument[]; nameOf(id: string): string }) {
  if (items.length === 0) return <p className="muted">No notifications.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on phones; a keyboard must reach all of it
    <section className="table-scroll" aria-label="Notifications" tabIndex={0}>
      <table className="stack-on-phone">
        <caption className="visually-hidden">Notifications, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Gate</th>
            <th scope="col">Person</th>
            <th scope="col">Channel</th>
            <th scope="col">Trigger</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {items.map((n) => (
            <tr key={n.id}>
              <td data-label="When">{formatDateTime(n.createdAt)}</td>
              <td data-label="Gate">
                {n.trigger.startsWith('review.') ? (
                  <a href="/review-health">Review health</a>
                ) : (
                  <a href={`/gates/${encodeURIComponent(n.gateId)}`}>Open gate</a>
                )}
              </td>
              <td data-label="Person">{nameOf(n.userId)}</td>
              <td data-label="Channel">{n.channel}</td>
              <td data-label="Trigger">{n.trigger}</td>
              <td data-label="Status">
                <span className={`badge ${n.status === 'failed' ? 'badge-warn' : ''}`}>{n.status}</span>
              </td>
              <td data-label="Attempts">{n.attempts}</td>
              <td data-label="Last error">{n.lastError ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Checks<T extends string>(props: {
  legend: string;
  options: readonly T[];
  value: T[];
  onChange(value: T[]): void;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option} className="checkbox">
          <input
            type="checkbox"
            checked={props.value.includes(option)}
            onChange={(event) =>
              props.onChange(
                event.target.checked ? [...props.value, option] : props.value.filter((v) => v !== option),
              )
            }
          />{' '}
          {option}
        </label>
      ))}
    </fieldset>
  );
}

function RuleForm({ onCreated }: { onCreated(): void }) {
  const [name, setName] = useState('');
  const [types, setTypes] = useState('');
  const [risks, setRisks] = useState<(typeof RISKS)[number][]>([]);
  const [roles, setRoles] = useState<(typeof ROLES)[number][]>([]);
  const [channels, setChannels] = useState<(typeof CHANNELS)[number][]>(['email']);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const gateTypes = types
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      await createNotificationRule({ name, gateTypes, risks, roles, channels });
      setName('');
      setTypes('');
      onCreated();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={(event) => void submit(event)} aria-labelledby="new-rule-title">
      <h3 id="new-rule-title">Add a rule</h3>
      <div className="field">
        <label htmlFor="rule-name">Name</label>
        <input
          id="rule-name"
          value={name}
          maxLength={200}
          required
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="rule-types">Gate types</label>
        <p id="rule-types-hint" className="muted small">
          Comma-separated; empty covers every type.
        </p>
        <input
          id="rule-types"
          aria-describedby="rule-types-hint"
          value={types}
          onChange={(e) => setTypes(e.target.value)}
        />
      </div>
      <Checks legend="Risk levels (none = all)" options={RISKS} value={risks} onChange={setRisks} />
      <Checks
        legend="Roles told (none = everyone who may decide)"
        options={ROLES}
        value={roles}
        onChange={setRoles}
      />
      <Checks legend="Channels" options={CHANNELS} value={channels} onChange={setChannels} />
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add rule'}
      </button>
    </form>
  );
}

function RuleTable({ rules, onChanged }: { rules: NotificationRuleDocument[]; onChanged(): void }) {
  const [error, setError] = useState<string | null>(null);
  const act = (work: () => Promise<unknown>) => {
    setError(null);
    work().then(onChanged, (caught: unknown) => setError(errorText(caught)));
  };
  return (
    <>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on phones; a keyboard must reach all of it */}
      <section className="table-scroll" aria-label="Notification rules" tabIndex={0}>
        <table className="stack-on-phone">
          <caption className="visually-hidden">Notification rules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Gate types</th>
              <th scope="col">Risks</th>
              <th scope="col">Roles</th>
              <th scope="col">Channels</th>
              <th scope="col">Enabled</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id}>
                <td data-label="Name">{rule.name}</td>
                <td data-label="Gate types">{any(rule.gateTypes)}</td>
                <td data-label="Risks">{any(rule.risks)}</td>
                <td data-label="Roles">{any(rule.roles)}</td>
                <td data-label="Channels">{rule.channels.join(', ')}</td>
                <td data-label="Enabled">{rule.enabled ? 'Yes' : 'No'}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    onClick={() => act(() => setNotificationRuleEnabled(rule.id, !rule.enabled))}
                  >
                    {rule.enabled ? 'Disable' : 'Enable'}
                    <span className="visually-hidden"> {rule.name}</span>
                  </button>{' '}
                  <button type="button" onClick={() => act(() => deleteNotificationRule(rule.id))}>
                    Delete<span className="visually-hidden"> {rule.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function RulesSection() {
  const { resource, reload } = useResource('notification-rules', useCallback(listNotificationRules, []));
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      {resource.status === 'loading' && <p role="status">Loading…</p>}
      {resource.status === 'error' && (
        <p className="notice error" role="alert">
          {errorText(resource.error)}
        </p>
      )}
      {resource.status === 'ready' && (
        <>
          {resource.value.defaultApplies && (
            <p className="notice">
              No rule is enabled: everyone who may decide a gate hears of it on their own channels.
            </p>
          )}
          {resource.value.rules.length > 0 && <RuleTable rules={resource.value.rules} onChanged={reload} />}
        </>
      )}
      <RuleForm onCreated={reload} />
    </section>
  );
}

/** Notifications: every notice with its delivery outcome, and (for tech leads and admins) the routing rules. */
export function NotificationsScreen() {
  const session = useSession();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('');
  const load = useCallback(
    (signal: AbortSignal) => listNotifications(status === '' ? {} : { status }, signal),
    [status],
  );
  const { resource } = useResource(`notifications-${status}`, load);
  const items = resource.status === 'ready' ? resource.value : [];
  const nameOf = usePersonNames(items.map((n) => n.userId));
  return (
    <main id="main" className="page ops-page">
      <h1>Notifications</h1>
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        <div className="field">
          <label htmlFor="notify-status">Status</label>
          <select
            id="notify-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as (typeof STATUSES)[number])}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === '' ? 'Any' : s}
              </option>
            ))}
          </select>
        </div>
        {resource.status === 'loading' && <p role="status">Loading…</p>}
        {resource.status === 'error' && (
          <p className="notice error" role="alert">
            {errorText(resource.error)}
          </p>
        )}
        {resource.status === 'ready' && <DeliveryTable items={items} nameOf={nameOf} />}
      </section>
      {session.can(MANAGE_ROLE) && <RulesSection />}
    </main>
  );
}
