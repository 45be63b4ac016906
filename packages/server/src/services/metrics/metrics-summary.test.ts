import { createGateCatalog, type Gate, openGate } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { quantile, summarize, timeline, timelineBucketSeconds } from './metrics-summary.js';

const catalog = createGateCatalog();

function gate(
  id: string,
  agentId: string,
  status: Gate['status'],
  seconds: number,
  by = 'user:user_dev',
): Gate {
  const opened = openGate({ type: 'tool_call', agentId }, { catalog, id, now: 0 });
  if (status === 'pending') return opened;
  const outcome = status;
  return {
    ...opened,
    status,
    decision: { option: 'x', outcome, decidedBy: by, affectedArtifacts: [], decidedAt: seconds * 1000 },
  };
}

describe('quantile', () => {
  it.each([
    [[], 0.5, null],
    [[5], 0.9, 5],
    [[1, 2, 3, 4], 0.5, 2],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9],
  ])('of %j at %d is %s by nearest rank', (values, q, expected) => {
    expect(quantile(values, q)).toBe(expected);
  });
});

describe('summarize', () => {
  it('counts only people’s decisions towards approval rate and time to decision', () => {
    const summary = summarize(
      [
        gate('g1', 'a', 'approved', 10),
        gate('g2', 'a', 'approved', 5, 'system:timeout'),
        gate('g3', 'b', 'rejected', 20),
        gate('g4', 'b', 'expired', 60, 'system:timeout'),
        gate('g5', 'b', 'pending', 0),
      ],
      new Map([['a', { allowed: 3, denied: 0 }]]),
      99,
    );
    expect(summary.generatedAt).toBe(99);
    expect(summary.totals).toEqual(
      expect.objectContaining({
        gates: 5,
        decided: 2,
        approved: 2,
        approvalRate: 0.5,
        escalationRate: 5 / 8,
      }),
    );
    expect(summary.totals.timeToDecision).toEqual({ count: 2, medianSeconds: 10, p90Seconds: 20 });
    expect(summary.byAgent.find((row) => row.agentId === 'a')).toEqual(
      expect.objectContaining({ gates: 2, allowed: 3, approvalRate: 1, escalationRate: 0.4 }),
    );
    expect(summary.byType).toEqual([expect.objectContaining({ type: 'tool_call', gates: 5 })]);
  });

  it('gives null rates when there is nothing to divide by', () => {
    const summary = summarize([], new Map(), 0);
    expect(summary.totals).toEqual(expect.objectContaining({ escalationRate: null, approvalRate: null }));
    expect(summary.byAgent).toEqual([]);
  });
});

describe('timeline', () => {
  it.each([
    [0, 29 * 60_000, 60],
    [0, 30 * 60_000, 300],
    [0, 2 * 3600_000, 300],
    [0, 20 * 3600_000, 3600],
    [0, 10 * 86_400_000, 86_400],
    [0, 400 * 86_400_000, 2_592_000],
  ])('spans %d..%d with %d-second buckets', (first, last, seconds) => {
    expect(timelineBucketSeconds(first, last)).toBe(seconds);
  });

  it('counts each gate in the bucket it opened in, by its status now, keeping empty buckets', () => {
    const at = (id: string, status: Gate['status'], openedAt: number): Gate => ({
      ...gate(id, 'a', status, 0),
      createdAt: openedAt,
    });
    const minute = 60_000;
    const result = timeline(
      [
        at('g1', 'approved', 10 * minute + 5),
        at('g2', 'rejected', 10 * minute + 30),
        at('g3', 'pending', 13 * minute),
      ],
      14 * minute,
    );
    expect(result.bucketSeconds).toBe(60);
    expect(result.buckets.map((bucket) => bucket.start)).toEqual([10, 11, 12, 13, 14].map((m) => m * minute));
    expect(result.buckets[0]).toEqual(
      expect.objectContaining({ gates: 2, approved: 1, rejected: 1, pending: 0 }),
    );
    expect(result.buckets[1]).toEqual(expect.objectContaining({ gates: 0, approved: 0 }));
    expect(result.buckets[3]).toEqual(expect.objectContaining({ gates: 1, pending: 1 }));
  });

  it('is empty without gates and part of the summary', () => {
    expect(summarize([], new Map(), 5).overTime).toEqual({ bucketSeconds: 60, buckets: [] });
    const summary = summarize([gate('g1', 'a', 'approved', 1)], new Map(), 0);
    expect(summary.overTime.buckets).toEqual([expect.objectContaining({ start: 0, gates: 1, approved: 1 })]);
  });
});
