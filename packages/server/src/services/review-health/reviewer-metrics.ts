import type { Gate } from 'gatehouse-hitl-core';
import { type Counter, createCounter, createHistogram, type Histogram } from '../metrics/prometheus.js';

/** Reviewers past this many on one node share the label `other`, so a scrape stays small. */
export const MAX_REVIEWER_LABELS = 50;
const BUCKETS = [1, 2, 5, 10, 30, 60, 300, 1800, 7200];

/** Per-reviewer decision counts and latency as Prometheus series, from the decisions this node committed. */
export interface ReviewerMetrics {
  observe(gate: Gate): void;
  render(): string;
}

export function createReviewerMetrics(): ReviewerMetrics {
  const decisions: Counter = createCounter(
    'gatehouse_reviewer_decisions_total',
    `Decisions by reviewer (user id; after ${MAX_REVIEWER_LABELS} reviewers, "other"), outcome and risk, since this node started.`,
  );
  const latency: Histogram = createHistogram(
    'gatehouse_reviewer_decision_seconds',
    `Time from a gate opening to a reviewer's decision, by reviewer (user id; after ${MAX_REVIEWER_LABELS}, "other").`,
    BUCKETS,
  );
  const labelled = new Set<string>();

  function labelOf(reviewer: string): string {
    if (labelled.has(reviewer)) return reviewer;
    if (labelled.size >= MAX_REVIEWER_LABELS) return 'other';
    labelled.add(reviewer);
    return reviewer;
  }

  return {
    observe(gate) {
      const decision = gate.decision;
      if (decision === null || decision.decidedBy.startsWith('system:')) return;
      if (decision.outcome === 'expired' || decision.outcome === 'cancelled') return;
      const reviewer = labelOf(decision.decidedBy);
      decisions.inc({ reviewer, outcome: decision.outcome, risk: gate.risk });
      latency.observe(Math.max(0, decision.decidedAt - gate.createdAt) / 1000, { reviewer });
    },
    render() {
      return `${decisions.render()}\n${latency.render()}`;
    },
  };
}
