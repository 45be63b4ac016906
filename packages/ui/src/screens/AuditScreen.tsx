import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  AUDIT_EXPORT_PATH,
  type AuditEvent,
  type AuditFilter,
  type ChainVerification,
  queryAudit,
  verifyChain,
} from '../api/audit.js';
import { errorText } from '../api/client.js';
import { useSession } from '../app/session.js';
import { type AuditNames, AuditParty, useAuditNames } from '../components/AuditParty.js';
import { Field } from '../components/Field.js';
import { Revealed } from '../components/Revealed.js';
import { formatDateTime } from '../components/time-format.js';

/** Kinds offered as suggestions; any kind can be typed. */
const KNOWN_KINDS = [
  'request.allowed',
  'request.denied',
  'gate.opened',
  'gate.vote',
  'gate.decided',
  'gate.expired',
  'gate.extended',
  'gate.assigned',
  'gate.cancelled',
  'gate.consumed',
  'gate.steer_failed',
  'run.created',
  'run.checkpoint',
  'run.paused',
  'run.resumed',
  'run.stopped',
  'run.steered',
  'run.completed',
  'confidence.reported',
  'confidence.escalated',
  'policy.replaced',
  'rule.created',
  'rule.revoked',
  'user.created',
  'user.role_changed',
  'agent.created',
  'token.issued',
  'token.revoked',
  'session.started',
  'session.ended',
  'login.failed',
  'key.registered',
];

const PAGE_SIZES = [25, 50, 100, 200];
const TEXT_FILTERS = ['kind', 'who', 'actor', 'subject'] as const;

interface Filters {
  kind: string;
  /** A person's or an agent's name (`actorName`). */
  who: string;
  actor: string;
  subject: string;
  /** datetime-local values (the reader's time zone) */
  since: string;
  until: string;
  limit: number;
}

type TextFilter = 'kind' | 'who' | 'actor' | 'subject' | 'since' | 'until';

function readFilters(search: string): Filters {
  const params = new URLSearchParams(search);
  const limit = Number(params.get('limit'));
  return {
    kind: params.get('kind') ?? '',
    who: params.get('who') ?? '',
    actor: params.get('actor') ?? '',
    subject: params.get('subject') ?? '',
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
    limit: PAGE_SIZES.includes(limit) ? limit : 50,
  };
}

/** The cursors that led to the page shown, oldest first: the page lives in the address too. */
function readCursors(search: string): string[] {
  return new URLSearchParams(search).getAll('after');
}

function writeFilters(filters: Filters, cursors: readonly string[] = []): string {
  const params = new URLSearchParams();
  for (const key of [...TEXT_FILTERS, 'since', 'until'] as const) {
    const value = filters[key].trim();
    if (value !== '') params.set(key, value);
  }
  if (filters.limit !== 50) params.set('limit', String(filters.limit));
  for (const cursor of cursors) params.append('after', cursor);
  const text = params.toString();
  return text === '' ? '/audit' : `/audit?${text}`;
}

function epoch(local: string): number | undefined {
  if (local === '') return undefined;
  const at = new Date(local).getTime();
  return Number.isNaN(at) ? undefined : at;
}

function toQuery(filters: Filters, cursor: string | undefined): AuditFilter {
  return {
    kind: filters.kind.trim() || undefined,
    actorName: filters.who.trim() || undefined,
    actor: filters.actor.trim() || undefined,
    subject: filters.subject.trim() || undefined,
    since: epoch(filters.since),
    until: epoch(filters.until),
    limit: filters.limit,
    cursor,
    order: 'desc',
  };
}

type PageState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; items: AuditEvent[]; nextCursor: string | null };

function VerifyChain() {
  const [state, setState] = useState<
    | { status: 'idle' }
    | { status: 'busy' }
    | { status: 'done'; result: ChainVerification }
    | { status: 'error'; message: string }
  >({ status: 'idle' });

  async function verify() {
    setState({ status: 'busy' });
    try {
      setState({ status: 'done', result: await verifyChain() });
    } catch (error) {
      setState({ status: 'error', message: errorText(error) });
    }
  }

  return (
    <div className="verify-chain">
      <button type="button" onClick={() => void verify()} disabled={state.status === 'busy'}>
        {state.status === 'busy' ? 'Verifying…' : 'Verify chain'}
      </button>
      <div role="status" className="verify-result">
        {state.status === 'done' ? (
          state.result.ok ? (
            <p className="notice ok">
              <strong>✓ Chain intact:</strong> {state.result.count} event{state.result.count === 1 ? '' : 's'}{' '}
              verified
              {state.result.lastHash ? (
                <>
                  , last hash <code className="hash">{state.result.lastHash.slice(0, 16)}…</code>
                </>
              ) : null}
              .
            </p>
          ) : (
            <p className="notice error">
              <strong>✗ Chain broken</strong> at event #{state.result.seq}: {state.result.reason}
            </p>
          )
        ) : null}
        {state.status === 'error' ? <p className="notice error">Could not verify: {state.message}</p> : null}
      </div>
    </div>
  );
}

function AuditRow({ event, names }: { event: AuditEvent; names: AuditNames }) {
  const details = JSON.stringify(event.data, null, 2);
  return (
    <tr>
      <td data-label="#" className="mono">
        {event.seq}
      </td>
      <td data-label="When">
        <time dateTime={new Date(event.at).toISOString()}>{formatDateTime(event.at)}</time>
      </td>
      <td data-label="Kind" className="mono">
        {event.kind}
      </td>
      <td data-label="Actor" className="wrap-anywhere">
        <AuditParty id={event.actor} names={names} />
      </td>
      <td data-label="Subject" className="wrap-anywhere">
        {event.subject === null ? '—' : <AuditParty id={event.subject} names={names} />}
      </td>
      <td data-label="Details">
        {details === '{}' ? (
          <span className="muted">—</span>
        ) : (
          <details>
            <summary>
              Details<span className="visually-hidden"> of event {event.seq}</span>
            </summary>
            <pre>
              <Revealed text={details} />
            </pre>
          </details>
        )}
      </td>
    </tr>
  );
}

/** The hash-chained audit trail: filters, cursor paging, chain verification and a JSON Lines export. */
export function AuditScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const session = useSession();
  const applied = readFilters(search);
  const [draft, setDraft] = useState<Filters>(applied);
  const cursors = readCursors(search);
  const [page, setPage] = useState<PageState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const cursor = cursors.at(-1);
  const names = useAuditNames(page.status === 'ready' ? page.items : []);

  useEffect(() => {
    setDraft(readFilters(search));
  }, [search]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the search string (filters and page) and generation stand for the query
  useEffect(() => {
    const controller = new AbortController();
    setPage({ status: 'loading' });
    queryAudit(toQuery(readFilters(search), cursor), controller.signal).then(
      (answer) => setPage({ status: 'ready', items: answer.items, nextCursor: answer.nextCursor }),
      (error: unknown) => {
        if (!controller.signal.aborted) setPage({ status: 'error', message: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [search, generation]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = writeFilters(draft);
    // A new search starts again from the first page.
    if (target === writeFilters(applied, cursors)) setGeneration((n) => n + 1);
    else navigate(target);
  };
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const textInput = (key: TextFilter, placeholder?: string) => ({
    value: draft[key],
    placeholder,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.target.value),
  });
  const filtered = writeFilters(applied) !== '/audit';

  return (
    <main id="main" className="page ops-page">
      <h1>Audit</h1>
      <section className="card audit-tools" aria-label="Chain and export">
        <VerifyChain />
        <div className="export">
          {session.can('tech_lead') ? (
            <>
              <a className="button" href={AUDIT_EXPORT_PATH} download="gatehouse-audit.jsonl">
                Export
              </a>
              <span className="muted"> the whole trail as JSON Lines (one event per line).</span>
            </>
          ) : (
            <span className="muted">Exporting the trail needs the tech lead role or above.</span>
          )}
        </div>
      </section>
      <form className="card audit-filters" onSubmit={submit} aria-label="Search the audit trail">
        <div className="form-grid">
          <Field id="audit-kind" label="Kind">
            {(wiring) => (
              <>
                <input {...wiring} list="audit-kinds" {...textInput('kind', 'gate.decided')} />
                <datalist id="audit-kinds">
                  {KNOWN_KINDS.map((kind) => (
                    <option key={kind} value={kind} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field id="audit-who" label="Person or agent">
            {(wiring) => <input {...wiring} {...textInput('who', 'a name, e.g. dana or build-bot')} />}
          </Field>
          <Field id="audit-actor" label="Actor id">
            {(wiring) => <input {...wiring} {...textInput('actor', 'user:user_… or agent:agent_…')} />}
          </Field>
          <Field id="audit-subject" label="Subject">
            {(wiring) => <input {...wiring} {...textInput('subject', 'gate_…, run_…, policy')} />}
          </Field>
          <Field id="audit-since" label="From">
            {(wiring) => <input {...wiring} type="datetime-local" {...textInput('since')} />}
          </Field>
          <Field id="audit-until" label="Until">
            {(wiring) => <input {...wiring} type="datetime-local" {...textInput('until')} />}
          </Field>
          <Field id="audit-limit" label="Per page">
            {(wiring) => (
              <select
                {...wiring}
                value={draft.limit}
                onChange={(event) => set('limit', Number(event.target.value))}
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="row">
          <button type="submit" className="primary">
            Search
          </button>
          {filtered ? (
            <button type="button" onClick={() => navigate('/audit')}>
              Clear filters
            </button>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="audit-events-title">
        <h2 id="audit-events-title">
          Events <span className="muted">(newest first, page {cursors.length + 1})</span>
        </h2>
        {page.status === 'loading' ? (
          <p role="status">Loading events…</p>
        ) : page.status === 'error' ? (
          <p className="notice error" role="alert">
            Could not load the audit trail: {page.message}
          </p>
        ) : page.items.length === 0 ? (
          <p className="notice info">
            {filtered ? 'No events match these filters.' : 'The audit trail is empty.'}
          </p>
        ) : (
          <div className="table-scroll">
            <table className="audit-table stack-on-phone">
              <caption className="visually-hidden">Audit events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((event) => (
                  <AuditRow key={event.seq} event={event} names={names} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav className="row pager" aria-label="Audit pages">
          <button
            type="button"
            onClick={() => navigate(writeFilters(applied, cursors.slice(0, -1)))}
            disabled={cursors.length === 0}
          >
            Previous page
          </button>
          <button
            type="button"
            onClick={() => {
              if (page.status === 'ready' && page.nextCursor !== null) {
                navigate(writeFilters(applied, [...cursors, page.nextCursor]));
              }
            }}
            disabled={page.status !== 'ready' || page.nextCursor === null}
          >
            Next page
          </button>
        </nav>
      </section>
    </main>
  );
}
