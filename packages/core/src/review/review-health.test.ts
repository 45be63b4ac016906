import { describe, expect, it } from 'vitest';
import { isContradicted, type ReviewDecision } from './review-decisions.js';
import { computeReviewHealth, type Reviewer } from './review-health.js';

const DAY = 86_400_000;
const from = 20 * DAY;
const to = from + 30 * DAY;
const reviewers: Reviewer[] = [
  { id: 'u_ann', name: 'ann', role: 'developer' },
  { id: 'u_bob', name: 'bob', role: 'developer' },
  { id: 'u_cat', name: 'cat', role: 'tech_lead' },
];

function decision(n: number, overrides: Partial<ReviewDecision>): ReviewDecision {
  const openedAt = from + n * 3_600_000;
  return {
    gateId: `g_${n}`,
    reviewer: 'u_ann',
    risk: 'high',
    openedAt,
    decidedAt: openedAt + 60_000,
    outcome: 'approved',
    viewed: ['arguments'],
    contradicted: false,
    ...overrides,
  };
}

function stamper(count: number): ReviewDecision[] {
  return Array.from({ length: count }, (_, n) =>
    decision(n, { reviewer: 'u_bob', decidedAt: from + n * 3_600_000 + 1_400, viewed: [] }),
  );
}

function careful(count: number): ReviewDecision[] {
  return Array.from({ length: count }, (_, n) =>
    decision(100 + n, { outcome: n % 4 === 0 ? 'rejected' : 'approved', viewed: ['diff', 'findings'] }),
  );
}

describe('computeReviewHealth', () => {
  it('names the rubber-stamper with the pattern and the gates, and not the careful reviewer', () => {
    const health = computeReviewHealth({
      decisions: [...stamper(40), ...careful(40)],
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
    });
    expect(health.flags).toHaveLength(1);
    const [flag] = health.flags;
    expect(flag?.reviewer).toBe('u_bob');
    expect(flag?.pattern).toBe(
      'bob approves high-risk in a median 1.4 s, opened nothing in 40 of 40 approvals and approved 40 of 40 decisions',
    );
    expect(flag?.signals).toEqual(['blind', 'fast', 'approves_all']);
    expect(flag?.gateIds).toHaveLength(20);
    expect(flag?.gateIds[0]).toBe('g_39');
  });

  it('counts decisions, approval rate, load share and time to decision by risk per reviewer', () => {
    const health = computeReviewHealth({
      decisions: [...stamper(10), ...careful(30)],
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
    });
    const ann = health.reviewers.find((r) => r.reviewer === 'u_ann');
    expect(ann).toMatchObject({
      decisions: 30,
      approvals: 22,
      loadShare: 0.75,
      blindApprovals: 0,
      group: 'developer',
    });
    expect(ann?.timeToDecision.high).toEqual({ count: 30, medianSeconds: 60, p90Seconds: 60 });
    expect(ann?.timeToDecision.low).toEqual({ count: 0, medianSeconds: null, p90Seconds: null });
    const bob = health.reviewers.find((r) => r.reviewer === 'u_bob');
    expect(bob).toMatchObject({ fastHighRiskApprovals: 10, blindApprovals: 10, approvalRate: 1 });
    expect(health.groups).toEqual([
      expect.objectContaining({ group: 'developer', reviewers: 2, decisions: 40 }),
    ]);
  });

  it('leaves decisions outside the window out', () => {
    const health = computeReviewHealth({
      decisions: [decision(0, { decidedAt: from - 1 }), decision(1, {})],
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
    });
    expect(health.totals.decisions).toBe(1);
  });

  it('counts timeouts against the assignees and the role the gate waited on', () => {
    const health = computeReviewHealth({
      decisions: [decision(1, { reviewer: 'u_cat' })],
      timeouts: [{ gateId: 'g_x', at: from + DAY, waitingOn: 'tech_lead', assignees: ['u_cat'] }],
      reviewers,
      window: { from, to },
      now: to,
    });
    expect(health.reviewers[0]?.escalationsByTimeout).toBe(1);
    expect(health.groups.find((g) => g.group === 'tech_lead')?.escalationsByTimeout).toBe(1);
    expect(health.totals.escalationsByTimeout).toBe(1);
  });

  it('does not count approvals from channels that cannot report views as blind', () => {
    const health = computeReviewHealth({
      decisions: Array.from({ length: 20 }, (_, n) =>
        decision(n, { viewed: null, decidedAt: from + n * 3_600_000 + 500 }),
      ),
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
    });
    expect(health.totals).toMatchObject({ approvalsViewsKnown: 0, blindApprovals: 0 });
    expect(health.flags[0]?.signals).toEqual(['fast', 'approves_all']);
  });

  it('takes the fast-approval floor from the settings', () => {
    const decisions = careful(20);
    const strict = computeReviewHealth({
      decisions,
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
      settings: { fastApprovalFloorSeconds: 120 },
    });
    expect(strict.totals.fastHighRiskApprovals).toBe(15);
    expect(strict.settings.fastApprovalFloorSeconds).toBe(120);
  });

  it('draws one point per day: median time by risk and approvals per reviewer', () => {
    const health = computeReviewHealth({
      decisions: careful(48),
      timeouts: [],
      reviewers,
      window: { from, to },
      now: to,
    });
    expect(health.series.days).toHaveLength(30);
    const high = health.series.timeToDecision.find((s) => s.risk === 'high');
    expect(high?.medianSeconds.slice(3, 8)).toEqual([null, 60, 60, 60, null]);
    expect(health.series.approvals[0]?.counts.reduce((a, b) => a + b, 0)).toBe(36);
  });
});

describe('isContradicted', () => {
  const approved = { outcome: 'approved' as const, decidedAt: 1_000 };

  it('holds when the run failed after the approval', () => {
    expect(
      isContradicted(approved, { run: { status: 'failed', updatedAt: 2_000 }, laterDecisions: [] }),
    ).toBe(true);
  });

  it('holds when a later decision in the run rolled the change back', () => {
    const after = {
      run: { status: 'running', updatedAt: 2_000 },
      laterDecisions: [{ option: 'reject_rollback', decidedAt: 1_500 }],
    };
    expect(isContradicted(approved, after)).toBe(true);
  });

  it('does not hold for a rejection, an earlier rollback or a completed run', () => {
    const rollbackBefore = { run: null, laterDecisions: [{ option: 'reject_rollback', decidedAt: 500 }] };
    expect(isContradicted(approved, rollbackBefore)).toBe(false);
    expect(
      isContradicted(approved, { run: { status: 'completed', updatedAt: 2_000 }, laterDecisions: [] }),
    ).toBe(false);
    expect(
      isContradicted(
        { outcome: 'rejected', decidedAt: 1_000 },
        { run: { status: 'failed', updatedAt: 2_000 }, laterDecisions: [] },
      ),
    ).toBe(false);
  });
});
