import { describe, expect, it } from 'vitest';
import {
  isNeverLearned,
  learnedRuleCovers,
  learnedRuleState,
  narrowingRefusal,
  proposeTrust,
  revokesLearnedRule,
  type TrustHistoryEntry,
} from './trust-proposals.js';

const DAY = 86_400_000;
const NOW = 200 * DAY;

function entry(i: number, overrides: Partial<TrustHistoryEntry> = {}): TrustHistoryEntry {
  const createdAt = NOW - 20 * DAY + i * DAY;
  return {
    gateId: `g${i}`,
    agentId: 'a1',
    action: { tool: 'bash', args: { command: 'npm test' } },
    outcome: 'approved',
    decidedBy: i % 2 === 0 ? 'user:ann' : 'user:bob',
    createdAt,
    decidedAt: createdAt + 4000,
    signed: false,
    requiredApprovals: 1,
    failedAfter: false,
    ...overrides,
  };
}

const twelve = Array.from({ length: 12 }, (_, i) => entry(i));

describe('trust proposals', () => {
  it('proposes the command prefix approved often enough by enough people over enough days', () => {
    const [proposal, ...rest] = proposeTrust({ history: twelve, now: NOW });
    expect(rest).toEqual([]);
    expect(proposal).toMatchObject({
      agentId: 'a1',
      tool: 'bash',
      scope: { kind: 'prefix', prefix: 'npm test' },
      description: 'bash(npm test:*)',
      evidence: { approvals: 12, people: ['user:ann', 'user:bob'], spanDays: 11, medianDecisionMs: 4000 },
      replay: { wouldAllow: 12, rejected: 0, steered: 0, edited: 0, failed: 0 },
    });
  });

  it.each<[string, (history: TrustHistoryEntry[]) => TrustHistoryEntry[]]>([
    ['fewer than 10 approvals', (h) => h.slice(0, 9)],
    ['one person only', (h) => h.map((e) => ({ ...e, decidedBy: 'user:ann' }))],
    [
      'approvals within two days',
      (h) => h.map((e) => ({ ...e, createdAt: NOW - DAY, decidedAt: NOW - DAY })),
    ],
    ['a rejection of a covered call', (h) => [...h, entry(13, { outcome: 'rejected' })]],
    ['a steer of a covered call', (h) => [...h, entry(13, { outcome: 'steered' })]],
    ['an edit of a covered call', (h) => [...h, entry(13, { outcome: 'edited' })]],
    ['a failure reported after a covered call', (h) => [...h, entry(13, { failedAfter: true })]],
    ['a signed gate among them', (h) => [...h, entry(13, { signed: true })]],
    ['an N-of-M gate among them', (h) => [...h, entry(13, { requiredApprovals: 2 })]],
  ])('makes no proposal with %s', (_name, change) => {
    expect(proposeTrust({ history: change(twelve), now: NOW })).toEqual([]);
  });

  it('learns nothing for an agent whose autonomy a person pinned', () => {
    expect(proposeTrust({ history: twelve, now: NOW, pinnedAgents: new Set(['a1']) })).toEqual([]);
  });

  it('never proposes a rule for always-gated calls, however often they were approved', () => {
    const history = twelve.map((e) => ({
      ...e,
      action: { tool: 'bash', args: { command: 'rm -rf build' } },
    }));
    expect(proposeTrust({ history, now: NOW })).toEqual([]);
  });

  it('takes thresholds from the settings', () => {
    expect(proposeTrust({ history: twelve, now: NOW, thresholds: { minApprovals: 13 } })).toEqual([]);
    expect(
      proposeTrust({ history: twelve.slice(0, 5), now: NOW, thresholds: { minApprovals: 5 } }),
    ).toHaveLength(1);
  });

  it('ignores gates older than the window', () => {
    expect(proposeTrust({ history: twelve, now: NOW + 80 * DAY })).toEqual([]);
  });

  it('covers calls of the same agent and tool within the scope only', () => {
    const rule = { agentId: 'a1', tool: 'bash', scope: { kind: 'prefix', prefix: 'npm test' } } as const;
    expect(
      learnedRuleCovers(rule, {
        agentId: 'a1',
        action: { tool: 'bash', args: { command: 'npm test -- x' } },
      }),
    ).toBe(true);
    expect(
      learnedRuleCovers(rule, { agentId: 'a2', action: { tool: 'bash', args: { command: 'npm test' } } }),
    ).toBe(false);
    expect(
      learnedRuleCovers(rule, { agentId: 'a1', action: { tool: 'bash', args: { command: 'npm publish' } } }),
    ).toBe(false);
    expect(
      learnedRuleCovers(rule, {
        agentId: 'a1',
        action: { tool: 'bash', args: { command: 'npm test && rm -rf /' } },
      }),
    ).toBe(false);
  });

  it('revokes on a rejected, steered, edited or harmful covered call, not on an approval', () => {
    const rule = { agentId: 'a1', tool: 'bash', scope: { kind: 'prefix', prefix: 'npm test' } } as const;
    const action = { tool: 'bash', args: { command: 'npm test' } };
    for (const outcome of ['rejected', 'steered', 'edited', 'harmful'] as const)
      expect(revokesLearnedRule(rule, { agentId: 'a1', action, outcome })).toBe(true);
    expect(revokesLearnedRule(rule, { agentId: 'a1', action, outcome: 'approved' })).toBe(false);
    expect(revokesLearnedRule(rule, { agentId: 'a2', action, outcome: 'rejected' })).toBe(false);
  });

  it('lets a person narrow a scope, never widen it', () => {
    const sample = { tool: 'bash', args: { command: 'npm test' } };
    const prefix = { kind: 'prefix', prefix: 'npm test' } as const;
    expect(narrowingRefusal(prefix, { kind: 'command', command: 'npm test' }, sample)).toBeNull();
    expect(narrowingRefusal(prefix, { kind: 'prefix', prefix: 'npm test --watch' }, sample)).toBeNull();
    expect(narrowingRefusal(prefix, { kind: 'prefix', prefix: 'npm' }, sample)).toMatch(/only be narrowed/);
    expect(narrowingRefusal(prefix, { kind: 'command', command: 'npm publish' }, sample)).toMatch(
      /only be narrowed/,
    );
    const glob = { kind: 'path', glob: 'src/**' } as const;
    expect(
      narrowingRefusal(
        glob,
        { kind: 'path', glob: 'src/app/**' },
        { tool: 'edit', args: { path: 'src/a.ts' } },
      ),
    ).toBeNull();
    expect(
      narrowingRefusal(glob, { kind: 'path', glob: '**' }, { tool: 'edit', args: { path: 'src/a.ts' } }),
    ).toMatch(/narrowed/);
  });

  it('tells an expired rule from a revoked one', () => {
    expect(learnedRuleState({ revokedAt: null, expiresAt: NOW + 1 }, NOW)).toBe('active');
    expect(learnedRuleState({ revokedAt: null, expiresAt: NOW }, NOW)).toBe('expired');
    expect(learnedRuleState({ revokedAt: 1, expiresAt: NOW + 1 }, NOW)).toBe('revoked');
  });

  it('counts always-gated and unreadable calls as never learned', () => {
    expect(isNeverLearned({ tool: 'bash', args: { command: 'git push --force origin main' } })).toBe(true);
    expect(isNeverLearned({ tool: 'bash', args: { command: 'echo $(curl x | sh' } })).toBe(true);
    expect(isNeverLearned({ tool: 'bash', args: { command: 'npm test' } })).toBe(false);
  });
});
