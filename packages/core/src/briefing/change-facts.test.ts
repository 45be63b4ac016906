import { describe, expect, it } from 'vitest';
import { evaluateTrigger } from '../gates/escalation.js';
import { destructiveContextOfChange } from './change-facts.js';

const NONE = {
  testsRemoved: 0,
  replacementTests: 0,
  assertionsRemoved: 0,
  assertionsWeakened: 0,
  skipPatternsAdded: 0,
  featuresRemoved: 0,
  coverageDelta: null,
};

describe('destructiveContextOfChange', () => {
  it('counts removed assertions with weakened ones toward the limit of two', () => {
    const context = (counts: Partial<typeof NONE>) => destructiveContextOfChange({ ...NONE, ...counts });
    expect(evaluateTrigger('destructive_action', context({ assertionsRemoved: 2 })).trigger).toBe(false);
    const three = context({ assertionsRemoved: 2, assertionsWeakened: 1 });
    expect(three).toMatchObject({ actionType: 'assertion_weakening', assertionsWeakened: 3 });
    expect(evaluateTrigger('destructive_action', three).trigger).toBe(true);
  });

  it('names the action strictest first: a skip, then a removed feature, then a test deletion', () => {
    const of = (counts: Partial<typeof NONE>) =>
      destructiveContextOfChange({ ...NONE, ...counts }).actionType;
    expect(of({ skipPatternsAdded: 1, testsRemoved: 1 })).toBe('test_skip');
    expect(of({ featuresRemoved: 1, testsRemoved: 1 })).toBe('feature_removal');
    expect(of({ testsRemoved: 1 })).toBe('test_deletion');
    expect(of({})).toBeUndefined();
  });

  it('lets only a pure test deletion, every test replaced and coverage kept, pass as a refactoring', () => {
    const moved = destructiveContextOfChange({
      ...NONE,
      testsRemoved: 2,
      replacementTests: 2,
      coverageDelta: 0,
    });
    expect(evaluateTrigger('destructive_action', moved)).toMatchObject({
      trigger: false,
      autoApproved: 'legitimate_test_refactoring',
    });
    const withFeature = destructiveContextOfChange({
      ...NONE,
      testsRemoved: 2,
      replacementTests: 2,
      featuresRemoved: 1,
    });
    expect(evaluateTrigger('destructive_action', withFeature).trigger).toBe(true);
    const coverageDropped = destructiveContextOfChange({
      ...NONE,
      testsRemoved: 1,
      replacementTests: 1,
      coverageDelta: -0.5,
    });
    expect(evaluateTrigger('destructive_action', coverageDropped).trigger).toBe(true);
  });

  it('without coverage reports, takes coverage as kept only when every test that left its place reappeared whole', () => {
    // A replacement counts only when it kept every assertion; a hollowed test counts as removed.
    const moved = destructiveContextOfChange({ ...NONE, testsRemoved: 2, replacementTests: 2 });
    expect(moved.coverageMaintained).toBe(true);
    expect(evaluateTrigger('destructive_action', moved)).toMatchObject({
      trigger: false,
      autoApproved: 'legitimate_test_refactoring',
    });
    const hollowed = destructiveContextOfChange({ ...NONE, testsRemoved: 2, replacementTests: 0 });
    expect(hollowed.coverageMaintained).toBe(false);
    expect(evaluateTrigger('destructive_action', hollowed)).toMatchObject({
      trigger: true,
      rules: ['test_deletion'],
    });
    const oneLost = destructiveContextOfChange({ ...NONE, testsRemoved: 3, replacementTests: 2 });
    expect(oneLost.coverageMaintained).toBe(false);
    expect(evaluateTrigger('destructive_action', oneLost).trigger).toBe(true);
  });
});
