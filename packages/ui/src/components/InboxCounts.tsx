import { type Gate, RISKS_BY_SEVERITY, type RiskLevel } from '../api/gates.js';

const NUMBER = new Intl.NumberFormat();

/** How many gates are pending, by risk, and how many the filters show. */
export function InboxCounts({ gates, shown }: { gates: readonly Gate[]; shown: number }) {
  const byRisk: Record<RiskLevel, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const gate of gates) byRisk[gate.risk] += 1;
  return (
    <p className="inbox-counts">
      <strong>{NUMBER.format(gates.length)} pending</strong>
      {RISKS_BY_SEVERITY.filter((risk) => byRisk[risk] > 0).map((risk) => (
        <span key={risk} className={`badge risk-${risk}`}>
          {NUMBER.format(byRisk[risk])} {risk}
        </span>
      ))}
      {shown !== gates.length && <span className="muted">showing {NUMBER.format(shown)}</span>}
    </p>
  );
}
