import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'wouter';
import { errorText } from '../api/client.js';
import { decideBatch, type ListedGate as Gate } from '../api/gates.js';
import { useSession } from '../app/session.js';
import { BatchBar } from '../components/BatchBar.js';
import { type BatchOutcome, BatchResults } from '../components/BatchResults.js';
import { InboxCounts } from '../components/InboxCounts.js';
import { InboxFilterBar } from '../components/InboxFilterBar.js';
import { LiveStatus } from '../components/LiveStatus.js';
import { PendingGateList } from '../components/PendingGateList.js';
import { useAgentNames } from '../components/use-agent-names.js';
import { PHONE_QUERY, useMediaQuery } from '../components/use-media-query.js';
import { useRunTitles } from '../components/use-run-titles.js';
import { splitBatch } from './inbox/batch-split.js';
import {
  hasFilters,
  type InboxFilters,
  matchesFilters,
  readFilters,
  writeFilters,
} from './inbox/inbox-filters.js';
import { byUrgency } from './inbox/inbox-order.js';
import { MAX_PENDING, usePendingGates } from './inbox/use-pending-gates.js';

type BatchState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; option: 'approve' | 'reject'; outcomes: BatchOutcome[] }
  | { status: 'failed'; message: string };

function distinct(values: Iterable<string | null>): string[] {
  return [...new Set([...values].filter((value): value is string => value !== null))].sort();
}

/** The selected ids that are still shown; the same set when nothing left. */
function keepShown(selected: ReadonlySet<string>, shown: readonly Gate[]): ReadonlySet<string> {
  if (selected.size === 0) return selected;
  const ids = new Set(shown.map((gate) => gate.id));
  const kept = [...selected].filter((id) => ids.has(id));
  return kept.length === selected.size ? selected : new Set(kept);
}

/** Pending gates, most urgent first, live from the event stream; filters, counts and batch decisions. */
export function InboxScreen() {
  const session = useSession();
  const user = session.user;
  const canDecide = session.can('developer');
  const phone = useMediaQuery(PHONE_QUERY);
  const { gates, load, stream, pausedRuns, reload } = usePendingGates();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const setFilters = useCallback(
    (next: InboxFilters) => setParams((current) => writeFilters(current, next), { replace: true }),
    [setParams],
  );

  const ordered = useMemo(() => byUrgency(gates), [gates]);
  const shown = useMemo(
    () => ordered.filter((gate) => matchesFilters(gate, filters, user.id)),
    [ordered, filters, user.id],
  );
  const agentIds = useMemo(() => distinct(gates.map((gate) => gate.agentId)), [gates]);
  const agentName = useAgentNames(agentIds);
  const agents = useMemo(
    () =>
      agentIds.map((id) => ({ id, name: agentName(id) ?? id })).sort((a, b) => a.name.localeCompare(b.name)),
    [agentIds, agentName],
  );
  const types = useMemo(() => distinct(gates.map((gate) => gate.type)), [gates]);
  const runs = useMemo(() => distinct(gates.map((gate) => gate.runId)), [gates]);
  const runTitle = useRunTitles(runs);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');
  const [batch, setBatch] = useState<BatchState>({ status: 'idle' });
  // Gates that leave the inbox or the filters leave the selection too.
  useEffect(() => setSelected((current) => keepShown(current, shown)), [shown]);

  const toggle = useCallback((id: string) => {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const selection = useMemo(
    () => (canDecide ? { selected, onToggle: toggle } : null),
    [canDecide, selected, toggle],
  );

  const split = useMemo(() => splitBatch(shown.filter((gate) => selected.has(gate.id))), [shown, selected]);

  async function decide(option: 'approve' | 'reject') {
    // Only the gates a batch may end are sent; the server refuses the others anyway.
    const chosen = split.eligible;
    if (chosen.length === 0) return;
    const titles = new Map(chosen.map((gate) => [gate.id, gate.headline]));
    setBatch({ status: 'busy' });
    try {
      const trimmed = reason.trim();
      const results = await decideBatch({
        gateIds: chosen.map((gate) => gate.id),
        option,
        ...(trimmed ? { reason: trimmed } : {}),
      });
      const outcomes = results.map((result) => ({
        ...result,
        title: titles.get(result.gateId) ?? result.gateId,
      }));
      setBatch({ status: 'done', option, outcomes });
      setSelected(new Set());
      if (outcomes.every((outcome) => outcome.ok)) setReason('');
    } catch (error) {
      setBatch({ status: 'failed', message: errorText(error) });
    }
  }

  const batchBar = canDecide && shown.length > 0 && (
    <BatchBar
      shown={shown.length}
      selected={selected.size}
      eligible={split.eligible.length}
      excluded={split.excluded}
      reason={reason}
      onReason={setReason}
      onSelectAll={(all) => setSelected(all ? new Set(shown.map((gate) => gate.id)) : new Set())}
      onDecide={(option) => void decide(option)}
      busy={batch.status === 'busy'}
    />
  );

  return (
    <main id="main" className="page inbox-page">
      <div className="inbox-head">
        <h1>Inbox</h1>
        <LiveStatus status={stream} />
      </div>
      {load.status === 'loading' && (
        <p role="status" className="muted">
          Loading pending gates…
        </p>
      )}
      {load.status === 'error' && (
        <div className="notice error" role="alert">
          <p>Could not load the inbox: {load.message}</p>
          <button type="button" onClick={reload}>
            Try again
          </button>
        </div>
      )}
      {load.status === 'ready' && (
        <>
          {load.refreshError && (
            <p className="notice warn" role="status">
              Could not refresh the inbox: {load.refreshError}
            </p>
          )}
          {!load.complete && (
            <p className="notice info">
              Only the first {MAX_PENDING.toLocaleString()} pending gates are loaded; use the filters to
              narrow down.
            </p>
          )}
          <InboxCounts gates={gates} shown={shown.length} />
          {gates.length > 0 && (
            <InboxFilterBar
              filters={filters}
              onChange={setFilters}
              types={types}
              agents={agents}
              runs={runs}
              runName={(runId) => runTitle(runId) ?? `Untitled run ${runId}`}
            />
          )}
          {batch.status === 'failed' && (
            <p className="notice error" role="alert">
              The batch decision failed: {batch.message}
            </p>
          )}
          {batch.status === 'done' && (
            <BatchResults
              option={batch.option}
              outcomes={batch.outcomes}
              onDismiss={() => setBatch({ status: 'idle' })}
            />
          )}
          {!phone && batchBar}
          {gates.length === 0 ? (
            <div className="card inbox-empty">
              <h2>Nothing waiting for you</h2>
              <p className="muted">New gates appear here the moment an agent asks.</p>
            </div>
          ) : shown.length === 0 && hasFilters(filters) ? (
            <div className="card inbox-empty">
              <h2>No pending gate matches these filters</h2>
              <button
                type="button"
                onClick={() =>
                  setFilters({ type: null, risk: null, agentId: null, runId: null, assignedToMe: false })
                }
              >
                Clear filters
              </button>
            </div>
          ) : (
            <>
              <p className="muted inbox-hint">
                Most urgent first. Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens
                {canDecide ? (
                  <>
                    , <kbd>x</kbd> selects
                  </>
                ) : null}
                .
              </p>
              <PendingGateList
                gates={shown}
                agentName={agentName}
                runTitle={runTitle}
                pausedRuns={pausedRuns}
                userId={user.id}
                selection={selection}
              />
            </>
          )}
          {/* On a phone the first gate comes first; deciding several at once follows the list. */}
          {phone && batchBar}
        </>
      )}
    </main>
  );
}
