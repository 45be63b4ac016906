import { describe, expect, it } from 'vitest';
import {
  isPhaseBranch,
  judgePush,
  type PushContext,
  type RefUpdate,
  pushRefusalOf as refusalOf,
  ZERO_OBJECT_ID as ZERO_ID,
} from './push-rules.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const agent: PushContext = { pusher: 'agent', runStatus: 'running', openBranch: null };
const person: PushContext = { pusher: 'person', runStatus: 'running', openBranch: 'phase-2-tactical-rev-2' };

function update(ref: string, old = ZERO_ID, next = B): RefUpdate {
  return { ref, old, new: next };
}

describe('push rules', () => {
  it.each([
    ['refs/heads/phase-1-strategic', true],
    ['refs/heads/phase-12-tactical', true],
    ['refs/heads/phase-3-tactical-rev-2', true],
    ['refs/heads/phase-0-strategic', false],
    ['refs/heads/phase-1-review', false],
    ['refs/heads/phase-1-strategic-rev-0', false],
    ['refs/heads/phase-1-strategic/x', false],
    ['refs/heads/main', false],
    ['refs/tags/phase-1-strategic', false],
    ['refs/notes/commits', false],
    ['phase-1-strategic', false],
  ])('takes %s as a phase branch: %s', (ref, expected) => {
    expect(isPhaseBranch(ref)).toBe(expected);
  });

  it('lets the agent create and advance phase branches only', () => {
    expect(refusalOf(update('refs/heads/phase-1-strategic'), agent)).toBeNull();
    expect(refusalOf(update('refs/heads/phase-1-strategic', A, B), agent)).toBeNull();
    expect(refusalOf(update('refs/heads/main', A, B), agent)).toBe('agents may push phase branches only');
    expect(refusalOf(update('refs/tags/v1'), agent)).toBe('agents may push phase branches only');
  });

  it('keeps the agent off the branch people are reviewing, and lets it answer on the next revision', () => {
    const frozen = { ...agent, frozenBranch: 'phase-1-strategic' };
    expect(refusalOf(update('refs/heads/phase-1-strategic', A, B), frozen)).toBe(
      'phase-1-strategic is under review: wait for the decision, then answer on the next -rev- branch',
    );
    expect(refusalOf(update('refs/heads/phase-1-strategic-rev-2'), frozen)).toBeNull();
  });

  it('refuses every deletion, from agents and people', () => {
    expect(refusalOf(update('refs/heads/phase-1-strategic', A, ZERO_ID), agent)).toBe(
      'branches cannot be deleted here',
    );
    expect(refusalOf(update('refs/heads/phase-2-tactical-rev-2', A, ZERO_ID), person)).toBe(
      'branches cannot be deleted here',
    );
  });

  it('lets people push only the branch under review, and nothing while none is', () => {
    expect(refusalOf(update('refs/heads/phase-2-tactical-rev-2', A, B), person)).toBeNull();
    expect(refusalOf(update('refs/heads/phase-2-tactical', A, B), person)).toBe(
      'people may push only the branch under review (phase-2-tactical-rev-2)',
    );
    expect(refusalOf(update('refs/heads/main', A, B), person)).toContain('only the branch under review');
    expect(refusalOf(update('refs/heads/phase-1-strategic', A, B), { ...person, openBranch: null })).toBe(
      'no review of this run is open; people push only to a branch under review',
    );
  });

  it.each(['stopped', 'completed', 'failed'] as const)('refuses every push to a %s run', (runStatus) => {
    expect(refusalOf(update('refs/heads/phase-1-strategic'), { ...agent, runStatus })).toBe(
      `the run is ${runStatus} and takes no more pushes`,
    );
  });

  it('refuses a whole push when one of its refs is refused', () => {
    const updates = [update('refs/heads/phase-1-strategic'), update('refs/heads/main', A, B)];
    const refused = judgePush(updates, agent);
    expect(refused && Object.fromEntries(refused)).toEqual({
      'refs/heads/main': 'agents may push phase branches only',
      'refs/heads/phase-1-strategic': 'not pushed: main was refused',
    });
    expect(judgePush([update('refs/heads/phase-1-strategic')], agent)).toBeNull();
  });
});
