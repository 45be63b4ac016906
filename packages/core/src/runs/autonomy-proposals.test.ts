import { describe, expect, it } from 'vitest';
import { policySchema } from '../policy/policy-schema.js';
import {
  autonomyThresholdsOf,
  nextAutonomyLevel,
  type PhaseReviewEntry,
  proposeAutonomy,
  revokesAutonomyStep,
} from './autonomy-proposals.js';

const DAY = 86_400_000;
const NOW = 200 * DAY;

function review(i: number, overrides: Partial<PhaseReviewEntry> = {}): PhaseReviewEntry {
  const createdAt = NOW - 20 * DAY + i * DAY;
  return {
    gateId: `p${i}`,
    agentId: 'a1',
    outcome: 'approved',
    decidedBy: i % 3 === 0 ? 'user:ann' : i % 3 === 1 ? 'user:bob' : 'user:cy',
    createdAt,
    decidedAt: createdAt + 60_000,
    failedAfter: false,
    ...overrides,
  };
}

const nine = Array.from({ length: 9 }, (_, i) => review(i));
const guided = [{ agentId: 'a1', level: 'guided' as const, pinned: false }];

describe('autonomy proposals', () => {
  it('proposes one level up from nine approved phase reviews by three people over eight days', () => {
    const [proposal, ...rest] = proposeAutonomy({ agents: guided, reviews: nine, now: NOW });
    expect(rest).toEqual([]);
    expect(proposal).toMatchObject({
      agentId: 'a1',
      from: 'guided',
      to: 'partial',
      evidence: {
        approvals: 9,
        people: ['user:ann', 'user:bob', 'user:cy'],
        spanDays: 8,
        medianDecisionMs: 60_000,
        windowDays: 90,
      },
    });
    expect(proposal?.evidence.gateIds[0]).toBe('p8');
    expect(proposal?.evidence.gateIds).toHaveLength(9);
  });

  it('needs the approvals, the people and the days', () => {
    expect(proposeAutonomy({ agents: guided, reviews: nine.slice(0, 7), now: NOW })).toEqual([]);
    const onePerson = nine.map((r) => ({ ...r, decidedBy: 'user:ann' }));
    expect(proposeAutonomy({ agents: guided, reviews: onePerson, now: NOW })).toEqual([]);
    const oneDay = nine.map((r) => ({ ...r, createdAt: NOW - DAY, decidedAt: NOW - DAY + 1000 }));
    expect(proposeAutonomy({ agents: guided, reviews: oneDay, now: NOW })).toEqual([]);
  });

  it.each(['rejected', 'steered', 'changes_requested'] as const)(
    'makes no proposal when a phase review in the window was %s',
    (outcome) => {
      const reviews = [...nine, review(10, { outcome })];
      expect(proposeAutonomy({ agents: guided, reviews, now: NOW })).toEqual([]);
    },
  );

  it('makes no proposal after a failure in the window', () => {
    const reviews = [...nine, review(10, { failedAfter: true })];
    expect(proposeAutonomy({ agents: guided, reviews, now: NOW })).toEqual([]);
  });

  it('forgets a rejection older than the window', () => {
    const reviews = [...nine, review(-200, { outcome: 'rejected' })];
    expect(proposeAutonomy({ agents: guided, reviews, now: NOW })).toHaveLength(1);
  });

  it('never proposes for a pinned agent', () => {
    const agents = [{ agentId: 'a1', level: 'guided' as const, pinned: true }];
    expect(proposeAutonomy({ agents, reviews: nine, now: NOW })).toEqual([]);
  });

  it('never proposes full unless the policy allows it', () => {
    const agents = [{ agentId: 'a1', level: 'review' as const, pinned: false }];
    expect(proposeAutonomy({ agents, reviews: nine, now: NOW })).toEqual([]);
    const allowed = proposeAutonomy({
      agents,
      reviews: nine,
      now: NOW,
      thresholds: { autonomyMaxLevel: 'full' },
    });
    expect(allowed.map((p) => p.to)).toEqual(['full']);
    const full = [{ agentId: 'a1', level: 'full' as const, pinned: false }];
    expect(
      proposeAutonomy({ agents: full, reviews: nine, now: NOW, thresholds: { autonomyMaxLevel: 'full' } }),
    ).toEqual([]);
  });

  it('reads its thresholds from the policy trust section', () => {
    const policy = policySchema.parse({
      name: 'p',
      trust: { autonomyMinApprovals: 3, autonomyMinPeople: 1, autonomyMinDays: 0, windowDays: 30 },
    });
    expect(autonomyThresholdsOf(policy.trust)).toEqual({
      minApprovals: 3,
      minPeople: 1,
      minDays: 0,
      windowDays: 30,
      maxLevel: 'review',
    });
    expect(() => policySchema.parse({ name: 'p', trust: { autonomyMaxLevel: 'total' } })).toThrow(
      /autonomyMaxLevel/,
    );
  });

  it('steps up the ramp one level at a time', () => {
    expect(nextAutonomyLevel('dependent')).toBe('guided');
    expect(nextAutonomyLevel('guided')).toBe('partial');
    expect(nextAutonomyLevel('partial')).toBe('review');
    expect(nextAutonomyLevel('review')).toBe('full');
    expect(nextAutonomyLevel('full')).toBeNull();
  });

  it('revokes an accepted step on a later rejection, steer or failure of the same agent', () => {
    expect(revokesAutonomyStep({ agentId: 'a1' }, review(1, { outcome: 'rejected' }))).toBe(true);
    expect(revokesAutonomyStep({ agentId: 'a1' }, review(1, { outcome: 'steered' }))).toBe(true);
    expect(revokesAutonomyStep({ agentId: 'a1' }, review(1))).toBe(false);
    expect(revokesAutonomyStep({ agentId: 'a2' }, review(1, { outcome: 'rejected' }))).toBe(false);
  });
});
