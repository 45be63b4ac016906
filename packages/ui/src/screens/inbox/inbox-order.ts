import type { Gate, RiskLevel } from '../../api/gates.js';

const RISK_RANK: Record<RiskLevel, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/**
 * Most urgent first: the soonest timeout (gates without one last), then the higher risk, then
 * mandatory gates, then the newest.
 */
export function compareUrgency(a: Gate, b: Gate): number {
  const timeoutA = a.timeoutAt ?? Number.POSITIVE_INFINITY;
  const timeoutB = b.timeoutAt ?? Number.POSITIVE_INFINITY;
  if (timeoutA !== timeoutB) return timeoutA < timeoutB ? -1 : 1;
  const risk = RISK_RANK[a.risk] - RISK_RANK[b.risk];
  if (risk !== 0) return risk;
  const mandatory = Number(b.threshold === 'mandatory') - Number(a.threshold === 'mandatory');
  if (mandatory !== 0) return mandatory;
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The gates in inbox order, as a new array. */
export function byUrgency<G extends Gate>(gates: Iterable<G>): G[] {
  return [...gates].sort(compareUrgency);
}
