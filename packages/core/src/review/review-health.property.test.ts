import fc from 'fast-check';
import { RISK_LEVELS } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import type { ReviewDecision } from './review-decisions.js';
import { computeReviewHealth, DEFAULT_REVIEW_HEALTH_SETTINGS, type Reviewer } from './review-health.js';

const DAY = 86_400_000;
const from = 100 * DAY;
const to = from + 30 * DAY;
const reviewers: Reviewer[] = ['u_a', 'u_b', 'u_c', 'u_d'].map((id, n) => ({
  id,
  name: id.slice(2),
  role: n < 2 ? 'developer' : 'admin',
}));
const floorMs = DEFAULT_REVIEW_HEALTH_SETTINGS.fastApprovalFloorSeconds * 1000;
const PARTS = ['diff', 'arguments', 'findings'] as const;

const anyDecision = fc.record({
  reviewer: fc.constantFrom(...reviewers.map((r) => r.id)),
  risk: fc.constantFrom(...RISK_LEVELS),
  openedAt: fc.integer({ min: from - DAY, max: to - 1 }),
  waitMs: fc.integer({ min: 0, max: DAY }),
  outcome: fc.constantFrom('approved', 'rejected', 'steered', 'resolved'),
  viewed: fc.option(fc.subarray([...PARTS]), { nil: null }),
  contradicted: fc.boolean(),
});

type Drawn = typeof anyDecision extends fc.Arbitrary<infer T> ? T : never;

function decisionsOf(drawn: Drawn[]): ReviewDecision[] {
  return drawn.map(({ waitMs, ...d }, n) => ({ ...d, gateId: `g_${n}`, decidedAt: d.openedAt + waitMs }));
}

/** Someone who opens at least one part and takes at least the floor on every high-risk call. */
const carefulDecision = fc.record({
  risk: fc.constantFrom(...RISK_LEVELS),
  openedAt: fc.integer({ min: from, max: to - 2 * DAY }),
  waitMs: fc.integer({ min: floorMs, max: DAY }),
  outcome: fc.constantFrom('approved', 'approved', 'approved', 'rejected', 'steered'),
  viewed: fc.subarray([...PARTS], { minLength: 1 }),
});

describe('review health properties', () => {
  it('adds the reviewers up to the totals, and each count stays within the one above it', () => {
    fc.assert(
      fc.property(fc.array(anyDecision, { maxLength: 120 }), (drawn) => {
        const health = computeReviewHealth({
          decisions: decisionsOf(drawn),
          timeouts: [],
          reviewers,
          window: { from, to },
          now: to,
        });
        const sum = (pick: (r: (typeof health.reviewers)[number]) => number) =>
          health.reviewers.reduce((total, r) => total + pick(r), 0);
        expect(sum((r) => r.decisions)).toBe(health.totals.decisions);
        expect(sum((r) => r.approvals)).toBe(health.totals.approvals);
        if (health.totals.decisions > 0) expect(sum((r) => r.loadShare ?? 0)).toBeCloseTo(1, 9);
        for (const r of [health.totals, ...health.reviewers, ...health.groups]) {
          expect(r.blindApprovals).toBeLessThanOrEqual(r.approvalsViewsKnown);
          expect(r.approvalsViewsKnown).toBeLessThanOrEqual(r.approvals);
          expect(r.contradicted).toBeLessThanOrEqual(r.approvals);
          expect(r.approvals).toBeLessThanOrEqual(r.decisions);
          for (const risk of RISK_LEVELS) {
            const { medianSeconds, p90Seconds } = r.timeToDecision[risk];
            if (medianSeconds !== null) expect(medianSeconds).toBeLessThanOrEqual(p90Seconds ?? Number.NaN);
          }
        }
        for (const series of health.series.approvals) {
          const reviewer = health.reviewers.find((r) => r.reviewer === series.reviewer);
          expect(series.counts.reduce((a, b) => a + b, 0)).toBe(reviewer?.approvals);
        }
      }),
    );
  });

  it('never flags a reviewer who opens what they approve and takes the floor on high risk', () => {
    fc.assert(
      fc.property(fc.array(carefulDecision, { minLength: 10, maxLength: 80 }), (drawn) => {
        const decisions = drawn.map(({ waitMs, ...d }, n) => ({
          ...d,
          reviewer: 'u_a',
          gateId: `g_${n}`,
          decidedAt: d.openedAt + waitMs,
          contradicted: false,
        }));
        const health = computeReviewHealth({
          decisions,
          timeouts: [],
          reviewers,
          window: { from, to },
          now: to,
        });
        expect(health.flags).toEqual([]);
      }),
    );
  });

  it('always flags a reviewer who approves everything in under 2 s without opening anything', () => {
    const stamp = fc.record({
      risk: fc.constantFrom(...RISK_LEVELS),
      openedAt: fc.integer({ min: from, max: to - DAY }),
      waitMs: fc.integer({ min: 0, max: 1_999 }),
    });
    fc.assert(
      fc.property(
        fc.array(stamp, { minLength: 10, maxLength: 80 }),
        fc.array(carefulDecision, { maxLength: 40 }),
        (stamps, others) => {
          const decisions: ReviewDecision[] = [
            ...stamps.map(({ waitMs, ...d }, n) => ({
              ...d,
              reviewer: 'u_b',
              gateId: `s_${n}`,
              decidedAt: d.openedAt + waitMs,
              outcome: 'approved' as const,
              viewed: [],
              contradicted: false,
            })),
            ...others.map(({ waitMs, ...d }, n) => ({
              ...d,
              reviewer: 'u_a',
              gateId: `c_${n}`,
              decidedAt: d.openedAt + waitMs,
              contradicted: false,
            })),
          ];
          const health = computeReviewHealth({
            decisions,
            timeouts: [],
            reviewers,
            window: { from, to },
            now: to,
          });
          expect(health.flags.map((f) => f.reviewer)).toEqual(['u_b']);
          expect(health.flags[0]?.gateIds.every((id) => id.startsWith('s_'))).toBe(true);
        },
      ),
    );
  });
});
