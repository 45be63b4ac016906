import { describe, expect, it } from 'vitest';
import type { ChangeCounts } from '../briefing/change-facts.js';
import {
  whitelistCovers as covers,
  factsWithout,
  globToRegExp,
  partitionFindings,
  WHITELIST_MS,
  type WhitelistScope,
} from './whitelist-match.js';

/** A stored entry: matching reads its scope, the other fields ride along. */
type WhitelistRecord = WhitelistScope & Record<string, unknown>;
/** A change's facts as the analysis reports them. */
type ChangeFacts = ChangeCounts & { testsAdded: number; lazinessFindings: number };

function entry(overrides: Partial<WhitelistRecord> = {}): WhitelistRecord {
  return {
    id: 'wl_1',
    pattern: 'lazy.error_swallowed',
    scope: 'file',
    path: 'src/legacy/**',
    agentId: null,
    justification: 'legacy code swallows on purpose',
    createdBy: 'user:user_a',
    createdAt: 0,
    expiresAt: WHITELIST_MS,
    reviewedAt: null,
    reviewGateId: null,
    sourceGateId: null,
    suppressed: 0,
    ...overrides,
  };
}

const finding = { pattern: 'lazy.error_swallowed', file: 'src/legacy/io/read.ts' };
const context = { agentId: 'agent_a', now: 1_000 };

describe('globToRegExp', () => {
  it.each([
    ['src/legacy/**', 'src/legacy/a/b.ts', true],
    ['src/legacy/**', 'src/other/a.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['**/*.test.ts', 'a/b/c.test.ts', true],
    ['**/*.test.ts', 'c.test.ts', true],
    ['src/a?.ts', 'src/ab.ts', true],
    ['src/a.ts', 'src/aXts', false],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe('covers', () => {
  it('covers the pattern in the files its glob matches while active', () => {
    expect(covers(entry(), finding, context)).toBe(true);
    expect(covers(entry(), { ...finding, file: 'src/new.ts' }, context)).toBe(false);
    expect(covers(entry(), { ...finding, pattern: 'lazy.stub' }, context)).toBe(false);
  });

  it('stops covering once expired', () => {
    expect(covers(entry(), finding, { ...context, now: WHITELIST_MS })).toBe(false);
  });

  it('covers only its own agent when it names one, and every file when global', () => {
    expect(covers(entry({ agentId: 'agent_b' }), finding, context)).toBe(false);
    expect(covers(entry({ scope: 'global', path: null }), { ...finding, file: 'x.py' }, context)).toBe(true);
  });
});

describe('partitionFindings', () => {
  it('keeps uncovered findings and names the file entry that suppressed the others', () => {
    const global = entry({ id: 'wl_global', scope: 'global', path: null });
    const file = entry({ id: 'wl_file' });
    const other = { pattern: 'lazy.stub', file: 'src/a.ts' };
    const { kept, suppressed } = partitionFindings([global, file], [finding, other], context);
    expect(kept).toEqual([other]);
    expect(suppressed).toEqual([{ finding, entryId: 'wl_file' }]);
  });
});

describe('factsWithout', () => {
  it('takes suppressed findings out of the facts the destructive rules read', () => {
    const facts: ChangeFacts = {
      testsRemoved: 2,
      testsAdded: 0,
      replacementTests: 0,
      assertionsRemoved: 0,
      assertionsWeakened: 0,
      skipPatternsAdded: 1,
      featuresRemoved: 0,
      coverageDelta: null,
      lazinessFindings: 0,
    };
    expect(factsWithout(facts, [{ kind: 'skip_added' }, { kind: 'test_removed' }])).toEqual({
      ...facts,
      testsRemoved: 1,
      skipPatternsAdded: 0,
    });
  });
});
