import { GATE_STATUSES, type Gate, type GateStatus } from 'gatehouse-hitl-core';
import type { AnalysisMetrics } from 'gatehouse-hitl-protocol';

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

/** Gates opened in one time bucket, in all and by the status each has now. */
export type MetricsBucket = {
  /** Bucket start, epoch ms (a multiple of the bucket size, UTC). */
  start: number;
  gates: number;
} & Record<GateStatus, number>;

/** Gates over time: every bucket from the first gate to now, empty ones included. */
export interface MetricsTimeline {
  bucketSeconds: number;
  buckets: MetricsBucket[];
}

export interface MetricsSummary {
  generatedAt: number;
  totals: MetricsFigures;
  byAgent: (MetricsFigures & { agentId: string | null })[];
  byType: (MetricsFigures & { type: string })[];
  overTime: MetricsTimeline;
  /** Seed 001's analysis metrics (added by the metrics service). */
  analysis?: AnalysisMetrics;
}

/** Bucket sizes to pick from, smallest first: a minute up to 30 days. */
export const TIMELINE_BUCKET_SECONDS = [60, 300, 900, 3600, 21_600, 86_400, 604_800, 2_592_000] as const;
const LARGEST_BUCKET_SECONDS = 2_592_000;
/** The timeline uses the smallest bucket that covers its span in at most this many buckets. */
export const TIMELINE_MAX_BUCKETS = 30;

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

function bucketCount(first: number, last: number, sizeMs: number): number {
  return Math.floor(last / sizeMs) - Math.floor(first / sizeMs) + 1;
}

/** Picks the smallest bucket size that spans `first`..`last` in at most TIMELINE_MAX_BUCKETS buckets. */
export function timelineBucketSeconds(first: number, last: number): number {
  const fits = TIMELINE_BUCKET_SECONDS.find(
    (seconds) => bucketCount(first, last, seconds * 1000) <= TIMELINE_MAX_BUCKETS,
  );
  return fits ?? LARGEST_BUCKET_SECONDS;
}

function emptyBucket(start: number): MetricsBucket {
  const byStatus = Object.fromEntries(GATE_STATUSES.map((status) => [status, 0])) as Record<
    GateStatus,
    number
  >;
  return { start, gates: 0, ...byStatus };
}

/** Gates by the bucket they were opened in and the status they have now. */
export function timeline(gates: readonly Gate[], now: number): MetricsTimeline {
  if (gates.length === 0) return { bucketSeconds: TIMELINE_BUCKET_SECONDS[0], buckets: [] };
  const opened = gates.map((gate) => gate.createdAt);
  const first = Math.min(...opened);
  const last = Math.max(now, ...opened);
  const bucketSeconds = timelineBucketSeconds(first, last);
  const sizeMs = bucketSeconds * 1000;
  const firstStart = Math.floor(first / sizeMs) * sizeMs;
  const buckets = Array.from({ length: bucketCount(first, last, sizeMs) }, (_, i) =>
    emptyBucket(firstStart + i * sizeMs),
  );
  for (const gate of gates) {
    const bucket = buckets[Math.floor((gate.createdAt - firstStart) / sizeMs)];
    if (bucket === undefined) continue;
    bucket.gates += 1;
    bucket[gate.status] += 1;
  }
  return { bucketSeconds, buckets };
}

/** Summarises gates and request counts into totals, per agent and per gate type. */
export function summarize(gates: Iterable<Gate>, requests: RequestCounts, now: number): MetricsSummary {
  const all = [...gates];
  const totals = emptyTally();
  const byAgent = new Map<string | null, Tally>();
  const byType = new Map<string, Tally>();
  for (const gate of all) {
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
    overTime: timeline(all, now),
  };
}
