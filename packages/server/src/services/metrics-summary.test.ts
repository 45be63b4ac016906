import { createGateCatalog, type Gate, openGate } from '@gatehouse/core';
import { describe, expect, it } from 'vitest';
import { quantile, summarize } from './metrics-summary.js';

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
