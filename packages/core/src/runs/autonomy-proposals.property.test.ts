import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUTONOMY_LEVELS } from '../schemas.js';
import {
  autonomyRank,
  type PhaseReviewEntry,
  type PhaseReviewOutcome,
  proposeAutonomy,
} from './autonomy-proposals.js';

const DAY = 86_400_000;
const NOW = 400 * DAY;

const review: fc.Arbitrary<PhaseReviewEntry> = fc
  .record({
    agentId: fc.constantFrom('a1', 'a2'),
    outcome: fc.constantFrom<PhaseReviewOutcome>(
      'approved',
      'approved',
      'approved',
      'approved',
      'rejected',
      'steered',
      'changes_requested',
      'expired',
    ),
    decidedBy: fc.constantFrom('user:ann', 'user:bob', 'user:cy'),
    day: fc.integer({ min: 0, max: 120 }),
    n: fc.nat(),
  })
  .map(({ day, n, ...rest }) => ({
    ...rest,
    failedAfter: false,
    gateId: `p${day}-${n}`,
    createdAt: NOW - day * DAY,
    decidedAt: NOW - day * DAY + 5000,
  }));

const agents = fc.tuple(
  fc.constantFrom(...AUTONOMY_LEVELS),
  fc.constantFrom(...AUTONOMY_LEVELS),
  fc.boolean(),
  fc.boolean(),
);
const maxLevel = fc.constantFrom(...AUTONOMY_LEVELS);
const settings = { autonomyMinApprovals: 3, autonomyMinPeople: 2, autonomyMinDays: 1 };

describe('autonomy proposals (properties)', () => {
  it('never proposes more than one level up, nor above the highest level allowed', () => {
    fc.assert(
      fc.property(fc.array(review, { maxLength: 40 }), agents, maxLevel, (reviews, [l1, l2, p1, p2], max) => {
        const candidates = [
          { agentId: 'a1', level: l1, pinned: p1 },
          { agentId: 'a2', level: l2, pinned: p2 },
        ];
        const thresholds = { ...settings, autonomyMaxLevel: max };
        for (const draft of proposeAutonomy({ agents: candidates, reviews, now: NOW, thresholds })) {
          expect(autonomyRank(draft.to) - autonomyRank(draft.from)).toBe(1);
          expect(autonomyRank(draft.to)).toBeLessThanOrEqual(autonomyRank(max));
        }
      }),
    );
  });

  it('never proposes full by default', () => {
    fc.assert(
      fc.property(fc.array(review, { maxLength: 40 }), agents, (reviews, [l1, l2]) => {
        const candidates = [
          { agentId: 'a1', level: l1, pinned: false },
          { agentId: 'a2', level: l2, pinned: false },
        ];
        const drafts = proposeAutonomy({ agents: candidates, reviews, now: NOW, thresholds: settings });
        expect(drafts.every((draft) => draft.to !== 'full')).toBe(true);
      }),
    );
  });

  it('never proposes for a pinned agent', () => {
    fc.assert(
      fc.property(fc.array(review, { maxLength: 40 }), agents, (reviews, [l1, l2]) => {
        const candidates = [
          { agentId: 'a1', level: l1, pinned: true },
          { agentId: 'a2', level: l2, pinned: true },
        ];
        expect(proposeAutonomy({ agents: candidates, reviews, now: NOW, thresholds: settings })).toEqual([]);
      }),
    );
  });

  it('makes no proposal for an agent with any rejection, steer, changes or failure in the window', () => {
    fc.assert(
      fc.property(
        fc.array(review, { maxLength: 40 }),
        fc.constantFrom<PhaseReviewOutcome>('rejected', 'steered', 'changes_requested'),
        fc.integer({ min: 0, max: 89 }),
        fc.boolean(),
        (reviews, outcome, day, asFailure) => {
          const bad: PhaseReviewEntry = {
            gateId: 'bad',
            agentId: 'a1',
            outcome: asFailure ? 'approved' : outcome,
            decidedBy: 'user:ann',
            createdAt: NOW - day * DAY,
            decidedAt: NOW - day * DAY + 1000,
            failedAfter: asFailure,
          };
          const candidates = [{ agentId: 'a1', level: 'dependent' as const, pinned: false }];
          const drafts = proposeAutonomy({
            agents: candidates,
            reviews: [...reviews, bad],
            now: NOW,
            thresholds: settings,
          });
          expect(drafts).toEqual([]);
        },
      ),
    );
  });
});
