import type { RunStatus } from 'gatehouse-hitl-core';

const LABEL: Record<RunStatus, string> = {
  running: 'Running',
  waiting: 'Waiting for a decision',
  paused: 'Paused',
  stopped: 'Stopped',
  completed: 'Completed',
  failed: 'Failed',
};

/** A run's status in words, tinted by how much it needs attention. */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <span className={`badge run-${status}`}>{LABEL[status]}</span>;
}

export function runStatusLabel(status: RunStatus): string {
  return LABEL[status];
}
