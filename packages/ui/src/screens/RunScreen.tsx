import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { type Agent, listAgents } from '../api/admin.js';
import {
  type LatestAnalysis,
  latestAnalysis,
  listRecoveries,
  type RecoveryDocument,
} from '../api/analysis.js';
import { errorText } from '../api/client.js';
import { type StreamStatus, useEventStream } from '../api/events.js';
import { listAllGates } from '../api/gates.js';
import {
  getRun,
  listInterventions,
  type Run,
  type RunResume,
  runAuditEvents,
  runEventsPath,
} from '../api/runs.js';
import { LiveStatus } from '../components/LiveStatus.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { ReviewRunList } from '../components/ReviewRunList.js';
import { RunAnalysis } from '../components/RunAnalysis.js';
import { RunControls } from '../components/RunControls.js';
import { RunStatusBadge } from '../components/RunStatusBadge.js';
import { type RunHistory, RunTimeline } from '../components/RunTimeline.js';
import { formatDateTime } from '../components/time-format.js';
import { usePersonNames } from '../components/use-person-names.js';
import { APPROVAL_MODE_LABEL, AUTONOMY_LABEL, phaseLabel } from '../lib/run-labels.js';
import { useResource } from '../lib/use-resource.js';

/** Gates shown per run; a run with more says so. */
const MAX_GATES = 1000;

interface RunDetail {
  run: Run;
  resume: RunResume | null;
  agent: Agent | null;
  history: RunHistory;
  gatesComplete: boolean;
  analysis: LatestAnalysis | null;
  recoveries: RecoveryDocument[];
}

async function loadRunDetail(runId: string, signal: AbortSignal): Promise<RunDetail> {
  const [{ run, resume }, gates, interventions, confidence, checkpoints, agents, analysis, recoveries] =
    await Promise.all([
      getRun(runId, signal),
      listAllGates({ runId }, { max: MAX_GATES, signal }),
      listInterventions(runId, signal),
      runAuditEvents(runId, 'confidence.reported', signal),
      runAuditEvents(runId, 'run.checkpoint', signal),
      listAgents(signal).catch(() => [] as Agent[]),
      latestAnalysis(runId, signal),
      listRecoveries(runId, signal),
    ]);
  return {
    run,
    resume,
    agent: agents.find((agent) => agent.id === run.agentId) ?? null,
    history: {
      gates: gates.gates,
      interventions,
      confidence: confidence.items,
      checkpoints: checkpoints.items,
    },
    gatesComplete: gates.complete,
    analysis,
    recoveries,
  };
}

function actorIds(history: RunHistory): string[] {
  return [
    ...history.gates.flatMap((gate) => [
      ...(gate.decision ? [gate.decision.decidedBy] : []),
      ...gate.approvals.map((vote) => vote.by),
    ]),
    ...history.interventions.map((item) => item.by.replace(/^user:/, '')),
  ];
}

function RunFacts({ detail }: { detail: RunDetail }) {
  const { run, agent, history } = detail;
  const pending = history.gates.filter((gate) => gate.status === 'pending').length;
  return (
    <section className="card" aria-labelledby="run-facts-title">
      <h2 id="run-facts-title">Overview</h2>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <RunStatusBadge status={run.status} />
          </dd>
        </div>
        <div>
          <dt>Agent</dt>
          <dd>
            {agent ? agent.name : <span className="mono">{run.agentId}</span>}
            {agent?.profile ? <span className="muted"> · {agent.profile}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Autonomy level</dt>
          <dd>{AUTONOMY_LABEL[run.autonomy]}</dd>
        </div>
        <div>
          <dt>Approval mode</dt>
          <dd>
            {APPROVAL_MODE_LABEL[run.approvalMode]}
            {run.approvalMode === 'confidence_threshold'
              ? ` (threshold ${Math.round(run.confidenceThreshold * 100)}%)`
              : null}
          </dd>
        </div>
        <div>
          <dt>Current phase</dt>
          <dd>{phaseLabel(run.phaseNumber, run.phaseType)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <RelativeTime at={run.createdAt} />{' '}
            <span className="muted">({formatDateTime(run.createdAt)})</span>
          </dd>
        </div>
        <div>
          <dt>Pending gates</dt>
          <dd>{pending === 0 ? 'None' : <strong>{pending}</strong>}</dd>
        </div>
        <div>
          <dt>Run id</dt>
          <dd className="mono">{run.id}</dd>
        </div>
      </dl>
      {run.instructions.length > 0 ? (
        <>
          <h3>Steering instructions received</h3>
          <ol className="instructions">
            {run.instructions.map((text, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: instructions only grow, oldest first
              <li key={index}>
                <pre>{text}</pre>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {detail.resume ? (
        <p className="muted">
          Last phase review: {detail.resume.status}
          {detail.resume.option ? ` (${detail.resume.option})` : ''}
          {detail.resume.feedback ? ` — feedback: ${detail.resume.feedback}` : ''}
        </p>
      ) : null}
    </section>
  );
}

/** One run: what it is, controls, and a live timeline of its gates, decisions, reports and interventions. */
export function RunScreen({ runId }: { runId: string }) {
  const load = useCallback((signal: AbortSignal) => loadRunDetail(runId, signal), [runId]);
  const { resource, reload } = useResource(runId, load);
  const [stream, setStream] = useState<StreamStatus>('connecting');
  const [override, setOverride] = useState<Run | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const onEvent = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(reload, 250);
  }, [reload]);
  useEventStream(runEventsPath(runId), onEvent, setStream);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const detail = resource.status === 'ready' ? resource.value : null;
  // An intervention's answer shows at once; the next reload brings the rest of the run.
  useEffect(() => {
    if (detail) setOverride(null);
  }, [detail]);
  const shown = useMemo(
    () =>
      detail && override && override.updatedAt >= detail.run.updatedAt
        ? { ...detail, run: override }
        : detail,
    [detail, override],
  );
  const nameOf = usePersonNames(detail ? actorIds(detail.history) : []);

  if (resource.status === 'loading') {
    return (
      <main id="main" className="page ops-page">
        <h1>Run</h1>
        <p role="status">Loading the run…</p>
      </main>
    );
  }
  if (resource.status === 'error' || shown === null) {
    return (
      <main id="main" className="page ops-page">
        <h1>Run</h1>
        <p className="notice error" role="alert">
          Could not load run {runId}: {resource.status === 'error' ? errorText(resource.error) : 'unknown'}
        </p>
        <Link href="/runs">Back to runs</Link>
      </main>
    );
  }
  const { run } = shown;
  return (
    <main id="main" className="page ops-page">
      <p className="breadcrumb">
        <Link href="/runs">Runs</Link>
      </p>
      <div className="row screen-title">
        <h1>Run {run.title ?? run.id}</h1>
        <LiveStatus status={stream} />
      </div>
      <div className="run-layout">
        <div>
          <RunFacts detail={shown} />
          <RunControls
            run={run}
            onChanged={(next) => {
              setOverride(next);
              reload();
            }}
          />
          <ReviewRunList runId={run.id} refreshKey={`${run.updatedAt}:${shown.history.gates.length}`} />
          <RunAnalysis runId={run.id} analysis={shown.analysis} recoveries={shown.recoveries} />
        </div>
        <section className="card" aria-labelledby="run-timeline-title">
          <h2 id="run-timeline-title">Timeline</h2>
          {shown.gatesComplete ? null : (
            <p className="notice warn">Showing the first {MAX_GATES} gates of this run.</p>
          )}
          <RunTimeline
            history={shown.history}
            nameOf={(actor) => (actor.startsWith('agent:') ? (shown.agent?.name ?? actor) : nameOf(actor))}
          />
        </section>
      </div>
    </main>
  );
}
