import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { type Agent, listAgents } from '../api/admin.js';
import { errorText } from '../api/client.js';
import { INBOX_EVENTS_PATH, type StreamEvent, type StreamStatus, useEventStream } from '../api/events.js';
import { listAllGates } from '../api/gates.js';
import { listRuns, RUN_STATUSES, type Run, type RunStatus } from '../api/runs.js';
import { LiveStatus } from '../components/LiveStatus.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { RunStatusBadge, runStatusLabel } from '../components/RunStatusBadge.js';
import { APPROVAL_MODE_LABEL, AUTONOMY_LABEL, phaseLabel } from '../lib/run-labels.js';

/** Pending gates counted per run; past this many the count says "+". */
const MAX_PENDING_COUNTED = 2000;

type ListState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; runs: Run[]; nextCursor: string | null; loadingMore: boolean };

function isRunStatus(value: string | null): value is RunStatus {
  return value !== null && (RUN_STATUSES as readonly string[]).includes(value);
}

function usePendingCounts(): { counts: Map<string, number>; complete: boolean; refresh: () => void } {
  const [state, setState] = useState<{ counts: Map<string, number>; complete: boolean }>({
    counts: new Map(),
    complete: true,
  });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the refresh trigger
  useEffect(() => {
    const controller = new AbortController();
    listAllGates({ status: 'pending' }, { max: MAX_PENDING_COUNTED, signal: controller.signal }).then(
      ({ gates, complete }) => {
        const counts = new Map<string, number>();
        for (const gate of gates) {
          if (gate.runId !== null) counts.set(gate.runId, (counts.get(gate.runId) ?? 0) + 1);
        }
        setState({ counts, complete });
      },
      () => {
        // counts are a convenience; the run screen shows its gates
      },
    );
    return () => controller.abort();
  }, [generation]);
  const refresh = useCallback(() => setGeneration((n) => n + 1), []);
  return { ...state, refresh };
}

function useAgentNames(): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    const controller = new AbortController();
    listAgents(controller.signal).then(
      (agents: Agent[]) => setNames(new Map(agents.map((agent) => [agent.id, agent.name]))),
      () => {
        // ids stay readable without names
      },
    );
    return () => controller.abort();
  }, []);
  return names;
}

/** Runs of every agent, newest first, with a status filter; statuses and pending counts follow live. */
export function RunsScreen() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('status');
  const status = isRunStatus(requested) ? requested : undefined;
  const [state, setState] = useState<ListState>({ status: 'loading' });
  const [stream, setStream] = useState<StreamStatus>('connecting');
  const [stale, setStale] = useState(false);
  const agentNames = useAgentNames();
  const pending = usePendingCounts();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [generation, setGeneration] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation is the reload trigger
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    setStale(false);
    listRuns({ status }, controller.signal).then(
      (page) =>
        setState({ status: 'ready', runs: page.items, nextCursor: page.nextCursor, loadingMore: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorText(error) });
      },
    );
    return () => controller.abort();
  }, [status, generation]);

  const loadMore = async () => {
    if (state.status !== 'ready' || state.nextCursor === null) return;
    const cursor = state.nextCursor;
    setState({ ...state, loadingMore: true });
    try {
      const page = await listRuns({ status, cursor });
      setState((current) =>
        current.status === 'ready'
          ? {
              status: 'ready',
              runs: [...current.runs, ...page.items],
              nextCursor: page.nextCursor,
              loadingMore: false,
            }
          : current,
      );
    } catch (error) {
      setState({ status: 'error', message: errorText(error) });
    }
  };

  const onEvent = useCallback(
    (event: StreamEvent) => {
      if (event.type === 'run.status' && event.runId !== null) {
        const next = event.data.status;
        const runId = event.runId;
        setState((current) => {
          if (current.status !== 'ready' || !isRunStatus(typeof next === 'string' ? next : null))
            return current;
          if (!current.runs.some((run) => run.id === runId)) {
            setStale(true);
            return current;
          }
          return {
            ...current,
            runs: current.runs.map((run) =>
              run.id === runId ? { ...run, status: next as RunStatus, updatedAt: event.at } : run,
            ),
          };
        });
      }
      if (event.type.startsWith('gate.')) {
        if (timer.current !== null) clearTimeout(timer.current);
        timer.current = setTimeout(pending.refresh, 300);
      }
    },
    [pending.refresh],
  );
  useEventStream(INBOX_EVENTS_PATH, onEvent, setStream);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const setFilter = (value: string) => {
    navigate(value === '' ? '/runs' : `/runs?status=${encodeURIComponent(value)}`);
  };

  const rows = useMemo(() => (state.status === 'ready' ? state.runs : []), [state]);

  return (
    <main id="main" className="page ops-page">
      <div className="row screen-title">
        <h1>Runs</h1>
        <LiveStatus status={stream} />
      </div>
      <div className="row filters">
        <div className="field">
          <label htmlFor="runs-status">Status</label>
          <select id="runs-status" value={status ?? ''} onChange={(event) => setFilter(event.target.value)}>
            <option value="">All statuses</option>
            {RUN_STATUSES.map((each) => (
              <option key={each} value={each}>
                {runStatusLabel(each)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => setGeneration((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {stale ? (
        <p className="notice info" role="status">
          Another run changed.{' '}
          <button type="button" className="button-link" onClick={() => setGeneration((n) => n + 1)}>
            Show the latest runs
          </button>
        </p>
      ) : null}
      {state.status === 'loading' ? (
        <p role="status">Loading runs…</p>
      ) : state.status === 'error' ? (
        <p className="notice error" role="alert">
          Could not load runs: {state.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="notice info">
          {status === undefined
            ? 'No runs yet. Runs appear here when an agent starts one (POST /v1/runs).'
            : `No ${runStatusLabel(status).toLowerCase()} runs.`}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="runs-table stack-on-phone">
              <caption className="visually-hidden">
                Runs, newest first{status ? `, ${runStatusLabel(status).toLowerCase()} only` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Autonomy</th>
                  <th scope="col">Approval mode</th>
                  <th scope="col">Current phase</th>
                  <th scope="col">Started</th>
                  <th scope="col">Pending gates</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((run) => {
                  const count = pending.counts.get(run.id) ?? 0;
                  return (
                    <tr key={run.id}>
                      <td data-label="Run">
                        <Link href={`/runs/${run.id}`}>{run.title ?? run.id}</Link>
                        {run.title ? <div className="muted mono small">{run.id}</div> : null}
                      </td>
                      <td data-label="Status">
                        <RunStatusBadge status={run.status} />
                      </td>
                      <td data-label="Agent">
                        {agentNames.get(run.agentId) ?? <span className="mono">{run.agentId}</span>}
                      </td>
                      <td data-label="Autonomy">{AUTONOMY_LABEL[run.autonomy]}</td>
                      <td data-label="Approval mode">{APPROVAL_MODE_LABEL[run.approvalMode]}</td>
                      <td data-label="Current phase">{phaseLabel(run.phaseNumber, run.phaseType)}</td>
                      <td data-label="Started">
                        <RelativeTime at={run.createdAt} />
                      </td>
                      <td data-label="Pending gates">
                        {count > 0 ? (
                          <strong>{count}</strong>
                        ) : (
                          <span className="muted">{pending.complete ? '0' : '?'}</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {state.status === 'ready' && state.nextCursor !== null ? (
            <button type="button" onClick={() => void loadMore()} disabled={state.loadingMore}>
              {state.loadingMore ? 'Loading…' : 'Load more runs'}
            </button>
          ) : null}
        </>
      )}
    </main>
  );
}
