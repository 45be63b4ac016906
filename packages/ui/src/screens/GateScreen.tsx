import {
  approvalBinding,
  type GateOption,
  gateHasHiddenCharacters,
  HIDDEN_CHARACTERS_WARNING,
  revealText,
} from 'gatehouse-hitl-core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, errorText } from '../api/client.js';
import { INBOX_EVENTS_PATH, type StreamEvent, type StreamStatus, useEventStream } from '../api/events.js';
import type { DecideResult, GateView } from '../api/gate-review.js';
import { listGates } from '../api/gates.js';
import { resolvePersonNames } from '../api/person-names.js';
import type { RunStatus } from '../api/runs.js';
import { useScreenDetail } from '../app/page-title.js';
import { useSession } from '../app/session.js';
import { ApprovalProgress } from '../components/ApprovalProgress.js';
import { AssignForm } from '../components/AssignForm.js';
import { Briefing } from '../components/Briefing.js';
import { ConfidenceIndicator } from '../components/ConfidenceIndicator.js';
import { DecisionPanel } from '../components/DecisionPanel.js';
import { DecisionSummary } from '../components/DecisionSummary.js';
import { DiffView } from '../components/DiffView.js';
import { ExtendForm } from '../components/ExtendForm.js';
import { GateContext } from '../components/GateContext.js';
import { GateOutcome, NextGateLinks } from '../components/GateOutcome.js';
import { GateTimeout } from '../components/GateTimeout.js';
import { CHANGE_GATE_TYPES, gateChanges } from '../components/gate-changes.js';
import { outcomeMessage, PAUSED_RUN_NOTE } from '../components/gate-labels.js';
import { ProposedAction } from '../components/ProposedAction.js';
import { phaseReviewLabel } from '../components/phase-label.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { Revealed } from '../components/Revealed.js';
import { RiskBadge } from '../components/RiskBadge.js';
import { useAgentName } from '../components/use-agent-name.js';
import { useGateView } from '../components/use-gate-view.js';
import { usePersonNames } from '../components/use-person-names.js';
import { useRunStatus } from '../components/use-run-status.js';
import { useRunTitles } from '../components/use-run-titles.js';
import { useViewReport } from '../components/use-view-report.js';
import { useSigningKey } from '../signing/use-signing-key.js';
import { EndedNotice } from './gate/EndedNotice.js';
import { GateFindings } from './gate/GateFindings.js';
import { approveBlock, assignBlock, decideBlock, extendBlock } from './gate/gate-access.js';
import { artifactChoices, confidenceReasons, gateTypeLabel, THRESHOLD_LABEL } from './gate/gate-facts.js';
import { compareUrgency } from './inbox/inbox-order.js';
import { ReviewMarkdown } from './review/ReviewMarkdown.js';

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: changes made elsewhere show here at once.',
  reconnecting: 'Live updates interrupted; reconnecting…',
};

function focusSection(id: string): void {
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: 'start' });
  target?.focus();
}

async function nextPendingGate(currentId: string): Promise<string | null> {
  const page = await listGates({ status: 'pending', limit: 200 });
  const next = page.items.filter((gate) => gate.id !== currentId).sort(compareUrgency)[0];
  return next?.id ?? null;
}

function LoadedGate({
  view,
  reload,
  replaceGate,
  streamStatus,
  reopenedAs,
  queueVersion,
  runStatus,
}: {
  view: GateView;
  reload(): Promise<void>;
  replaceGate: ReturnType<typeof useGateView>['replaceGate'];
  streamStatus: StreamStatus;
  reopenedAs: string | null;
  /** Counts changes to other gates, so "next gate" follows the inbox live. */
  queueVersion: number;
  /** The status of the gate's run, live; null without a run or while unknown. */
  runStatus: RunStatus | null;
}) {
  const session = useSession();
  const user = session.user;
  const { gate, briefing } = view;
  const pending = gate.status === 'pending';
  const [outcome, setOutcome] = useState<string | null>(null);
  const [nextGateId, setNextGateId] = useState<string | null | undefined>(undefined);
  const [lostRace, setLostRace] = useState(false);
  const [contextOpen, setContextOpen] = useState(false);
  const sawPending = useRef(pending);
  if (pending) sawPending.current = true;

  const nameOf = usePersonNames(peopleOf(view));
  const signing = useSigningKey(gate.signatureRequired && pending);
  const changes = useMemo(() => gateChanges(gate), [gate]);
  // A phase branch's review shows its diff on its own screen, linked in the header.
  const hasReview = typeof gate.context.reviewId === 'string';
  const showDiff =
    changes.length > 0 ||
    (CHANGE_GATE_TYPES.has(gate.type) && !hasReview) ||
    gate.options.some((o) => o.id === 'diff');
  const reasons = confidenceReasons(gate, briefing);
  const decidedByMe = gate.decision?.decidedBy === user.id;
  const agentName = useAgentName(gate.agentId);
  const runTitle = useRunTitles(gate.runId ? [gate.runId] : []);
  const phase = phaseReviewLabel(gate);
  const views = useViewReport(gate.id);

  // biome-ignore lint/correctness/useExhaustiveDependencies: queueVersion says another gate changed
  useEffect(() => {
    if (pending) return;
    let live = true;
    nextPendingGate(gate.id).then(
      (id) => live && setNextGateId(id),
      () => live && setNextGateId(null),
    );
    return () => {
      live = false;
    };
  }, [pending, gate.id, queueVersion]);

  const onDecided = (result: DecideResult) => {
    replaceGate(result.gate);
    const held = runStatus === 'paused' && result.gate.status === 'approved';
    setOutcome(`${outcomeMessage(result, user.id)}${held ? ` ${PAUSED_RUN_NOTE}` : ''}`);
  };
  const onLostRace = () => {
    setLostRace(true);
    setOutcome(null);
    void reload();
  };
  const onShowMore = (option: GateOption) => {
    if (option.id === 'diff' && showDiff) {
      views.opened('diff');
      focusSection('changes-heading');
    } else if (option.id === 'history') focusSection('history-heading');
    else {
      views.opened('findings');
      setContextOpen(true);
      requestAnimationFrame(() => focusSection('context-heading'));
    }
  };

  const omit = [
    // The page says it once, above everything.
    'Hidden Characters',
    'Recovery History',
    // Listed in full below the summary, each with its lines before and after.
    'Findings',
    ...(gate.action ? ['Proposed Action'] : []),
    ...(reasons.length ? ['Reasons'] : []),
  ];
  const blocked = decideBlock(gate, user, nameOf);
  const editedArgs = gate.decision?.editedArgs;
  return (
    <>
      <header className="gate-head">
        <p className="gate-meta muted">
          {gateTypeLabel(gate.type)} gate · <code>{gate.id}</code> · opened{' '}
          <RelativeTime at={gate.createdAt} />
        </p>
        <h1>
          <Revealed text={withAgentName(view.headline, gate.agentId, agentName)} multiline={false} />
        </h1>
        <div className="row gate-badges">
          <RiskBadge risk={gate.risk} />
          <span className="badge">{THRESHOLD_LABEL[gate.threshold]}</span>
          {gate.signatureRequired && <span className="badge">Signature required</span>}
          {runStatus === 'paused' && <span className="badge run-paused">Run paused</span>}
          {runStatus === 'stopped' && <span className="badge run-stopped">Run stopped</span>}
          {phase && <span className="badge badge-neutral">{phase}</span>}
          {gate.runId && (
            <Link href={`/runs/${encodeURIComponent(gate.runId)}`}>
              Run: <Revealed text={runTitle(gate.runId) ?? 'untitled run'} multiline={false} />
            </Link>
          )}
          {typeof gate.context.reviewId === 'string' && (
            <Link href={`/reviews/${encodeURIComponent(gate.context.reviewId)}`}>
              Open the review: files, diff and comments
            </Link>
          )}
          {agentName && gate.agentId && (
            <Link href={`/audit?who=${encodeURIComponent(agentName)}`}>Agent: {agentName}</Link>
          )}
        </div>
        <GateTimeout gate={gate} />
        {(briefing?.hiddenCharacters === true || gateHasHiddenCharacters(gate)) && (
          <p className="notice warn">
            <strong>Hidden characters.</strong> {HIDDEN_CHARACTERS_WARNING}
          </p>
        )}
        <p className="muted small live-indicator">{STATUS_TEXT[streamStatus]}</p>
      </header>
      <div className="gate-layout">
        <div className="gate-main">
          {briefing ? (
            <div ref={views.watch.findings}>
              <Briefing briefing={briefing} omit={omit} />
            </div>
          ) : (
            <p className="notice warn">The server could not build a Summary of Action for this gate.</p>
          )}
          <GateFindings gate={gate} />
          {gate.type === 'intent_approval' && typeof gate.context.design === 'string' && (
            <section className="card" aria-labelledby="design-heading">
              <h2 id="design-heading">Design</h2>
              <ReviewMarkdown text={gate.context.design} label="The plan’s design, rendered" />
            </section>
          )}
          {/* Before the decision, also on phones: the action is read before a button is pressed. */}
          {gate.action && (
            <div ref={views.watch.arguments}>
              <ProposedAction
                action={editedArgs ? { ...gate.action, args: editedArgs } : gate.action}
                binding={approvalBinding(gate)}
                edited={editedArgs !== undefined}
              />
            </div>
          )}
          {/* The change, too, is read before the decision (on a phone it would otherwise follow it). */}
          {showDiff && (
            <div ref={views.watch.diff}>
              <DiffView files={changes} headingId="changes-heading" />
            </div>
          )}
          <ConfidenceIndicator confidence={briefing?.confidence ?? null} reasons={reasons} gate={gate} />
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: on desktop the panel scrolls on its own; a keyboard must reach all of it */}
        <section className="card gate-decision" aria-labelledby="decision-heading" tabIndex={0}>
          <h2 id="decision-heading">Decision</h2>
          {outcome && decidedByMe && <GateOutcome message={outcome} nextGateId={nextGateId} />}
          {outcome && pending && <GateOutcome message={outcome} nextGateId={undefined} />}
          {!pending && !(outcome && decidedByMe) && (
            <>
              <EndedNotice gate={gate} myId={user.id} nameOf={nameOf} live={sawPending.current || lostRace} />
              <NextGateLinks nextGateId={nextGateId} />
            </>
          )}
          {reopenedAs && (
            <p className="notice info">
              The agent could not apply the steer; the gate opened again as{' '}
              <Link href={`/gates/${encodeURIComponent(reopenedAs)}`}>{reopenedAs}</Link>.
            </p>
          )}
          <ApprovalProgress gate={gate} nameOf={nameOf} myId={user.id} />
          {pending ? (
            <>
              {runStatus === 'paused' && <p className="notice warn">{PAUSED_RUN_NOTE}</p>}
              <DecisionPanel
                gate={gate}
                blocked={blocked}
                approveBlocked={approveBlock(view.separatedOwner, user)}
                myId={user.id}
                canGlobalRule={session.can('tech_lead')}
                artifactChoices={artifactChoices(gate, briefing, changes)}
                signing={gate.signatureRequired ? signing : null}
                onShowMore={onShowMore}
                onDecided={onDecided}
                onLostRace={onLostRace}
              />
              <ExtendForm gate={gate} blocked={extendBlock(gate, user)} onExtended={replaceGate} />
              <AssignForm
                key={gate.assignees.join(' ')}
                gate={gate}
                blocked={assignBlock(gate, user)}
                canListPeople={session.can('admin')}
                nameOf={nameOf}
                onAssigned={replaceGate}
              />
            </>
          ) : (
            <DecisionSummary gate={gate} nameOf={nameOf} />
          )}
        </section>
        <div className="gate-more">
          <GateContext
            gate={gate}
            artifacts={briefing?.artifacts ?? gate.artifacts}
            recoveryHistory={briefing?.recoveryHistory ?? []}
            contextOpen={contextOpen}
            onContextToggle={(open) => {
              if (open) views.opened('findings');
              setContextOpen(open);
            }}
          />
        </div>
      </div>
    </>
  );
}

/** The people a gate names, looked up before it shows, so a notice like "decided by dana" is whole at once. */
function peopleOf(view: GateView): string[] {
  const { gate } = view;
  return [
    ...gate.approvals.map((vote) => vote.by),
    ...gate.assignees,
    ...(gate.decision ? [gate.decision.decidedBy] : []),
  ];
}

function GateReview({ gateId }: { gateId: string }) {
  const session = useSession();
  const canListPeople = session.can('admin');
  const prepare = useCallback(
    (view: GateView) => resolvePersonNames(peopleOf(view), canListPeople),
    [canListPeople],
  );
  const { view, error, loading, reload, replaceGate } = useGateView(gateId, prepare);
  const run = useRunStatus(view?.gate.runId ?? null);
  const runEvent = run.onEvent;
  const [streamStatus, setStreamStatus] = useState<StreamStatus>('connecting');
  const [reopenedAs, setReopenedAs] = useState<string | null>(null);
  const [queueVersion, setQueueVersion] = useState(0);

  const onEvent = useCallback(
    (event: StreamEvent) => {
      runEvent(event);
      if (event.gateId !== gateId) {
        if (event.gateId !== null) setQueueVersion((n) => n + 1);
        return;
      }
      if (event.type === 'gate.steer_failed' && typeof event.data.reopenedAs === 'string') {
        setReopenedAs(event.data.reopenedAs);
      }
      void reload();
    },
    [gateId, reload, runEvent],
  );
  const onStatus = useCallback(
    (status: StreamStatus) => {
      setStreamStatus(status);
      // Whatever happened while the stream was down (or before it opened) is read afresh.
      if (status === 'live') void reload();
    },
    [reload],
  );
  useEventStream(INBOX_EVENTS_PATH, onEvent, onStatus);

  const headline = view?.headline;
  useScreenDetail(headline ? `Gate: ${revealText(headline)}` : null);

  const missing = error instanceof ApiError && error.status === 404;
  return (
    <main id="main" className="page gate-page">
      {view ? (
        <>
          {error !== null && (
            <p className="notice error" role="alert">
              Could not refresh the gate: {errorText(error)}
            </p>
          )}
          <LoadedGate
            view={view}
            reload={reload}
            replaceGate={replaceGate}
            streamStatus={streamStatus}
            reopenedAs={reopenedAs}
            queueVersion={queueVersion}
            runStatus={run.status}
          />
        </>
      ) : (
        <>
          <h1>Gate {gateId}</h1>
          {loading && <p role="status">Loading the gate…</p>}
          {!loading && error !== null && (
            <div className="notice error" role="alert">
              <p>
                {missing ? `There is no gate ${gateId}.` : `Could not load the gate: ${errorText(error)}`}
              </p>
              {!missing && (
                <button type="button" onClick={() => void reload()}>
                  Try again
                </button>
              )}
            </div>
          )}
        </>
      )}
    </main>
  );
}

/** Gate review: the Summary of Action, everything behind it, and the gate's own options. */
/** The briefing names the agent by id; people know it by name. */
function withAgentName(text: string, agentId: string | null, agentName: string | null): string {
  return agentId && agentName ? text.split(agentId).join(agentName) : text;
}

export function GateScreen({ gateId }: { gateId: string }) {
  // A new gate id starts a fresh review (form fields, notices, the next-gate link).
  return <GateReview key={gateId} gateId={gateId} />;
}
