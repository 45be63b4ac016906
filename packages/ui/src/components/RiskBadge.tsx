import type { RiskLevel } from 'gatehouse-hitl-core';

const LABEL: Record<RiskLevel, string> = {
  low: 'Low risk',
  medium: 'Medium risk',
  high: 'High risk',
  critical: 'Critical risk',
};

/** A gate's risk as a text label in the risk's colour (the text carries the meaning, not the colour). */
export function RiskBadge({ risk }: { risk: RiskLevel }) {
  return <span className={`badge risk-${risk}`}>{LABEL[risk]}</span>;
}
