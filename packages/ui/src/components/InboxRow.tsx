import { gateHasHiddenCharacters } from 'gatehouse-hitl-core';
import { revealText } from 'gatehouse-hitl-protocol';
import { memo } from 'react';
import { Link } from 'wouter';
import type { Gate } from '../api/gates.js';
import { Countdown } from './Countdown.js';
import { approvalProgress, gateTypeLabel } from './inbox-labels.js';
import { RelativeTime } from './RelativeTime.js';
import { Revealed } from './Revealed.js';
import { RiskBadge } from './RiskBadge.js';

export interface InboxRowProps {
  gate: Gate;
  /** The agent's name, or null to show its id. */
  agentName: string | null;
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
  assignedToMe,
  selected,
  onToggle,
}: InboxRowProps) {
  const progress = approvalProgress(gate);
  const title = revealText(gate.title);
  return (
    <div className="inbox-row-body">
      {selected !== null && (
        <input
          type="checkbox"
          className="inbox-row-select"
          aria-label={`Select ${title}`}
          checked={selected}
          onChange={() => onToggle(gate.id)}
        />
      )}
      <div className="inbox-row-main">
        <Link href={`/gates/${gate.id}`} className="inbox-row-link">
          <Revealed text={gate.title} multiline={false} />
        </Link>
        <div className="inbox-row-meta">
          <RiskBadge risk={gate.risk} />
          {gateHasHiddenCharacters(gate) && <span className="badge badge-warn">Hidden characters</span>}
          {gate.threshold === 'mandatory' && <span className="badge badge-neutral">Mandatory</span>}
          <span>{gateTypeLabel(gate.type)}</span>
          {gate.agentId && (
            <span>
              <span className="muted">Agent </span>
              {agentName ?? gate.agentId}
            </span>
          )}
          {gate.runId && (
            <span>
              <span className="muted">Run </span>
              <span className="mono">{gate.runId}</span>
            </span>
          )}
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
