import { agentTitleBeside, gateConfidence, gateHasHiddenCharacters } from 'gatehouse-hitl-core';
import { memo, useMemo } from 'react';
import { Link } from 'wouter';
import type { ListedGate } from '../api/gates.js';
import { Countdown } from './Countdown.js';
import { approvalProgress, gateTypeLabel } from './inbox-labels.js';
import { RelativeTime } from './RelativeTime.js';
import { Revealed } from './Revealed.js';
import { RiskBadge } from './RiskBadge.js';

export interface InboxRowProps {
  gate: ListedGate;
  /** The agent's name, or null while it is unknown. */
  agentName: string | null;
  /** The run's title, or null while it is unknown or the run has none. */
  runTitle: string | null;
  /** Whether the gate's run is paused: an approval goes ahead only once it is resumed. */
  runPaused: boolean;
  /** Whether the gate is assigned to the person looking. */
  assignedToMe: boolean;
  /** Whether its checkbox is ticked; null hides the checkbox (people who cannot decide). */
  selected: boolean | null;
  onToggle(id: string): void;
}

/** One pending gate in the inbox: a link to its review with what matters at a glance. */
export const InboxRow = memo(function InboxRow({
  gate,
  agentName,
  runTitle,
  runPaused,
  assignedToMe,
  selected,
  onToggle,
}: InboxRowProps) {
  const progress = approvalProgress(gate);
  const confidence = useMemo(() => gateConfidence(gate), [gate]);
  // The headline its page leads with; the agent's own title beside it when it says more.
  const headline = gate.headline;
  const agentTitle = agentTitleBeside(gate, headline);
  return (
    <div className="inbox-row-body">
      {selected !== null && (
        <input
          type="checkbox"
          className="inbox-row-select"
          aria-label={`Select ${headline}`}
          checked={selected}
          onChange={() => onToggle(gate.id)}
        />
      )}
      <div className="inbox-row-main">
        <Link href={`/gates/${gate.id}`} className="inbox-row-link">
          <Revealed text={headline} multiline={false} />
        </Link>
        <div className="inbox-row-meta">
          {agentTitle && (
            <span>
              <span className="muted">Agent’s title </span>
              <Revealed text={agentTitle} multiline={false} />
            </span>
          )}
          {confidence && (
            <span className={`badge band-${confidence.band}`}>Confidence {confidence.score}/100</span>
          )}
          <RiskBadge risk={gate.risk} />
          {gateHasHiddenCharacters(gate) && <span className="badge badge-warn">Hidden characters</span>}
          {gate.threshold === 'mandatory' && <span className="badge badge-neutral">Mandatory</span>}
          <span>{gateTypeLabel(gate.type)}</span>
          {gate.agentId && (
            <span>
              <span className="muted">Agent </span>
              {agentName ?? 'unknown agent'}
            </span>
          )}
          {gate.runId && (
            <span>
              <span className="muted">Run </span>
              {runTitle ? <Revealed text={runTitle} multiline={false} /> : 'untitled run'}
            </span>
          )}
          {runPaused && <span className="badge run-paused">Run paused</span>}
          {progress && <span>{progress}</span>}
          {assignedToMe && <span className="badge badge-neutral">Assigned to you</span>}
        </div>
      </div>
      <div className="inbox-row-time">
        <Countdown at={gate.timeoutAt} />
        <span className="muted">
          opened <RelativeTime at={gate.createdAt} />
        </span>
      </div>
    </div>
  );
});
