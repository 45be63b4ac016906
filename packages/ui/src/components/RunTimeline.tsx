import type { GateListItem as Gate } from 'gatehouse-hitl-protocol';
import { Link } from 'wouter';
import type { AuditEvent } from '../api/audit.js';
import type { Intervention } from '../api/runs.js';
import { ArgumentChanges } from './ArgumentChanges.js';
import { changesOf } from './edit-args.js';
import { Revealed } from './Revealed.js';
import { RiskBadge } from './RiskBadge.js';
import { Timeline, type TimelineEntry } from './Timeline.js';

/** Everything the run's timeline is built from. */
export interface RunHistory {
  gates: Gate[];
  interventions: Intervention[];
  /** `confidence.reported` audit events of the run. */
  confidence: AuditEvent[];
  /** `run.checkpoint` audit events of the run. */
  checkpoints: AuditEvent[];
}

const INTERVENTION_LABEL: Record<Intervention['kind'], string> = {
  pause: 'Paused',
  resume: 'Resumed',
  stop: 'Stopped',
  steer: 'Steered',
};

const OUTCOME_LABEL: Record<string, string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  steered: 'Steered',
  resolved: 'Resolved',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

function gateEntries(gate: Gate, nameOf: (actor: string) => string): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      key: `gate-${gate.id}`,
      at: gate.createdAt,
      label: 'Gate opened',
      tone: 'gate',
      body: (
        <>
          <Link href={`/gates/${gate.id}`}>
            <Revealed text={gate.headline} multiline={false} />
          </Link>{' '}
          <span className="row inline-meta">
            <RiskBadge risk={gate.risk} />
            <span className="badge">{gate.type.replaceAll('_', ' ')}</span>
            <span className="muted">
              {gate.status === 'pending' ? 'waiting for a decision' : gate.status}
            </span>
          </span>
        </>
      ),
    },
  ];
  const decision = gate.decision;
  if (gate.requiredApprovals > 1) {
    for (const vote of gate.approvals) {
      if (decision !== null && vote.at === decision.decidedAt) continue;
      entries.push({
        key: `vote-${gate.id}-${vote.by}`,
        at: vote.at,
        label: 'Approval',
        tone: 'decision',
        body: (
          <p>
            {nameOf(vote.by)} approved “{gate.headline}” ({gate.approvals.length} of {gate.requiredApprovals}{' '}
            needed){vote.reason ? `: ${vote.reason}` : ''}
          </p>
        ),
      });
    }
  }
  if (decision !== null) {
    const edited = decision.editedArgs;
    const outcome = OUTCOME_LABEL[decision.outcome] ?? decision.outcome;
    entries.push({
      key: `decision-${gate.id}`,
      at: decision.decidedAt,
      label: `Decision: ${outcome}${edited ? ' with edits' : ''}`,
      tone: `decision outcome-${decision.outcome}`,
      body: (
        <>
          <p>
            {nameOf(decision.decidedBy)} chose <strong>{decision.option}</strong> on “{gate.headline}”
            {edited ? ', with edited arguments:' : ''}
          </p>
          {edited ? (
            <ArgumentChanges
              changes={changesOf(gate.action?.args ?? {}, edited)}
              label={`Arguments edited on “${gate.headline}”`}
            />
          ) : null}
          {decision.reason ? <p>Reason: {decision.reason}</p> : null}
          {decision.feedback ? <p>Feedback: {decision.feedback}</p> : null}
          {decision.instructions ? (
            <div>
              Instructions for the agent:
              <pre>
                <Revealed text={decision.instructions} />
              </pre>
            </div>
          ) : null}
          {decision.affectedArtifacts.length > 0 ? (
            <p>
              Affected: <span className="mono">{decision.affectedArtifacts.join(', ')}</span>
            </p>
          ) : null}
        </>
      ),
    });
  }
  return entries;
}

function interventionEntry(item: Intervention, nameOf: (actor: string) => string): TimelineEntry {
  return {
    key: `intervention-${item.id}`,
    at: item.createdAt,
    label: INTERVENTION_LABEL[item.kind],
    tone: `intervention kind-${item.kind}`,
    body: (
      <>
        <p>By {nameOf(item.by)}</p>
        {item.instruction ? (
          <pre>
            <Revealed text={item.instruction} />
          </pre>
        ) : null}
      </>
    ),
  };
}

function confidenceEntry(event: AuditEvent): TimelineEntry {
  const { confidence, band, threshold, escalate, reason } = event.data;
  const score = typeof confidence === 'number' ? `${Math.round(confidence * 100)} / 100` : 'unknown';
  return {
    key: `confidence-${event.id}`,
    at: event.at,
    label: 'Confidence report',
    tone: 'confidence',
    body: (
      <>
        <p>
          Score <strong>{score}</strong>
          {typeof band === 'string' ? ` · ${band} band` : ''}
          {typeof threshold === 'number' ? ` · threshold ${threshold}` : ''}
          {escalate === true ? ' · escalated to a gate' : ''}
        </p>
        {typeof reason === 'string' && reason !== '' ? <p className="muted">{reason}</p> : null}
      </>
    ),
  };
}

function checkpointEntry(event: AuditEvent): TimelineEntry {
  const { phaseNumber, phaseType, freeze, jobCompleteCalled } = event.data;
  return {
    key: `checkpoint-${event.id}`,
    at: event.at,
    label: jobCompleteCalled === true ? 'Job complete' : 'Phase ended',
    tone: 'phase',
    body: (
      <p>
        Phase {String(phaseNumber)} ({String(phaseType)}){' '}
        {freeze === true ? '— frozen for a phase review' : '— no review needed'}
      </p>
    ),
  };
}

/** The run's gates, decisions, confidence reports, phase ends and interventions, newest first. */
export function RunTimeline({ history, nameOf }: { history: RunHistory; nameOf: (actor: string) => string }) {
  const entries = [
    ...history.gates.flatMap((gate) => gateEntries(gate, nameOf)),
    ...history.interventions.map((item) => interventionEntry(item, nameOf)),
    ...history.confidence.map(confidenceEntry),
    ...history.checkpoints.map(checkpointEntry),
  ].sort((a, b) => b.at - a.at || a.key.localeCompare(b.key));
  if (entries.length === 0) {
    return <p className="muted">Nothing has happened in this run yet: no gates, reports or interventions.</p>;
  }
  return <Timeline entries={entries} label="Run timeline, newest first" />;
}
