import type { Gate } from '@gatehouse/core';

/** Review figures for one slice (everything, one agent or one gate type). */
export interface MetricsFigures {
  /** Requests answered at once by the policy or a remembered rule. */
  allowed: number;
  denied: number;
  /** Gates opened (each one a request escalated to people). */
  gates: number;
  pending: number;
  /** Gates ended by a person's decision. */
  decided: number;
  approved: number;
  rejected: number;
  steered: number;
  resolved: number;
  expired: number;
  cancelled: number;
  /** gates / (allowed + denied + gates); null without requests. */
  escalationRate: number | null;
  /** approved / decided; null without decisions. */
  approvalRate: number | null;
  timeToDecision: { count: number; medianSeconds: number | null; p90Seconds: number | null };
}

export interface MetricsSummary {
  generatedAt: number;
  totals: MetricsFigures;
  byAgent: (MetricsFigures & { agentId: string | null })[];
  byType: (MetricsFigures & { type: string })[];
}

/** Counts of requests the policy answered at once, per agent id (null: no agent). */
export type RequestCounts = Map<string | null, { allowed: number; denied: number }>;

interface Tally {
  allowed: number;
  denied: number;
  statuses: Map<string, number>;
  gates: number;
  decided: number;
  humanApproved: number;
  durations: number[];
}

function emptyTally(): Tally {
  return {
    allowed: 0,
    denied: 0,
    statuses: new Map(),
    gates: 0,
    decided: 0,
    humanApproved: 0,
    durations: [],
  };
}

/** True when a person (not a timeout or the server) ended the gate. */
export function isHumanDecision(gate: Gate): boolean {
  if (gate.decision === null || gate.decision.decidedBy.startsWith('system:')) return false;
  return gate.status !== 'pending' && gate.status !== 'expired' && gate.status !== 'cancelled';
}

function addGate(tally: Tally, gate: Gate): void {
  tally.gates += 1;
  tally.statuses.set(gate.status, (tally.statuses.get(gate.status) ?? 0) + 1);
  if (isHumanDecision(gate) && gate.decision) {
    tally.decided += 1;
    if (gate.status === 'approved') tally.humanApproved += 1;
    tally.durations.push(Math.max(0, gate.decision.decidedAt - gate.createdAt) / 1000);
  }
}

/** The q-quantile (0..1) of sorted values by the nearest-rank method. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

function figures(tally: Tally): MetricsFigures {
  const status = (name: string) => tally.statuses.get(name) ?? 0;
  const requests = tally.allowed + tally.denied + tally.gates;
  const sorted = [...tally.durations].sort((a, b) => a - b);
  return {
    allowed: tally.allowed,
    denied: tally.denied,
    gates: tally.gates,
    pending: status('pending'),
    decided: tally.decided,
    approved: status('approved'),
    rejected: status('rejected'),
    steered: status('steered'),
    resolved: status('resolved'),
    expired: status('expired'),
    cancelled: status('cancelled'),
    escalationRate: requests === 0 ? null : tally.gates / requests,
    approvalRate: tally.decided === 0 ? null : tally.humanApproved / tally.decided,
    timeToDecision: {
      count: sorted.length,
      medianSeconds: quantile(sorted, 0.5),
      p90Seconds: quantile(sorted, 0.9),
    },
  };
}

/** Summarises gates and request counts into totals, per agent and per gate type. */
export function summarize(gates: Iterable<Gate>, requests: RequestCounts, now: number): MetricsSummary {
  const totals = emptyTally();
  const byAgent = new Map<string | null, Tally>();
  const byType = new Map<string, Tally>();
  for (const gate of gates) {
    addGate(totals, gate);
    if (!byAgent.has(gate.agentId)) byAgent.set(gate.agentId, emptyTally());
    addGate(byAgent.get(gate.agentId) as Tally, gate);
    if (!byType.has(gate.type)) byType.set(gate.type, emptyTally());
    addGate(byType.get(gate.type) as Tally, gate);
  }
  for (const [agentId, counts] of requests) {
    totals.allowed += counts.allowed;
    totals.denied += counts.denied;
    if (!byAgent.has(agentId)) byAgent.set(agentId, emptyTally());
    const tally = byAgent.get(agentId) as Tally;
    tally.allowed += counts.allowed;
    tally.denied += counts.denied;
  }
  return {
    generatedAt: now,
    totals: figures(totals),
    byAgent: [...byAgent].map(([agentId, tally]) => ({ agentId, ...figures(tally) })),
    byType: [...byType].map(([type, tally]) => ({ type, ...figures(tally) })),
  };
}
