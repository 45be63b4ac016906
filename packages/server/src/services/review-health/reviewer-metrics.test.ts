import { createGateCatalog, type Gate, openGate } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { createReviewerMetrics, MAX_REVIEWER_LABELS } from './reviewer-metrics.js';

const catalog = createGateCatalog();

function decided(id: string, by: string, seconds: number): Gate {
  const gate = openGate(
    { type: 'tool_call', agentId: 'agent_a', requestedBy: 'agent:agent_a' },
    { catalog, id, now: 0 },
  );
  return {
    ...gate,
    status: 'approved',
    decision: {
      option: 'approve',
      outcome: 'approved',
      decidedBy: by,
      affectedArtifacts: [],
      decidedAt: seconds * 1000,
    },
  };
}

describe('reviewer metrics', () => {
  it('counts decisions and latency per reviewer, outcome and risk', () => {
    const metrics = createReviewerMetrics();
    metrics.observe(decided('g1', 'user_ann', 1.5));
    metrics.observe(decided('g2', 'user_ann', 40));
    const text = metrics.render();
    expect(text).toContain(
      'gatehouse_reviewer_decisions_total{outcome="approved",reviewer="user_ann",risk="medium"} 2',
    );
    expect(text).toContain('gatehouse_reviewer_decision_seconds_bucket{le="2",reviewer="user_ann"} 1');
    expect(text).toContain('gatehouse_reviewer_decision_seconds_count{reviewer="user_ann"} 2');
  });

  it('leaves timeouts out and folds reviewers past the label limit into "other"', () => {
    const metrics = createReviewerMetrics();
    metrics.observe(decided('g0', 'system:timeout', 5));
    for (let n = 0; n <= MAX_REVIEWER_LABELS; n++) metrics.observe(decided(`g${n}`, `user_${n}`, 5));
    const text = metrics.render();
    expect(text).not.toContain('system:timeout');
    expect(text).toContain('reviewer="other"');
    const reviewers = new Set([...text.matchAll(/reviewer="([^"]+)"/g)].map((m) => m[1]));
    expect(reviewers.size).toBe(MAX_REVIEWER_LABELS + 1);
  });
});
