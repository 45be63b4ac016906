import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { AUTONOMY_LEVELS, type AutonomyLevel } from '../schemas.js';
import {
  EXPERT_AUTONOMY_DEFAULTS,
  FRAMEWORK_DEFAULT_AUTONOMY,
  freezeContext,
  type PhaseBoundary,
  phaseBranchName,
  prBehaviour,
  resolveAutonomy,
  resumeAfterFreeze,
  shouldFreeze,
} from './autonomy.js';

function validationError(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatehouseError);
    expect((error as GatehouseError).code).toBe('VALIDATION_FAILED');
    return error as GatehouseError;
  }
  throw new Error('expected a VALIDATION_FAILED error');
}

const BOUNDARIES: Record<string, PhaseBoundary> = {
  'after the initial strategic phase': { phaseType: 'strategic', phaseNumber: 1, jobCompleteCalled: false },
  'after a later strategic phase': { phaseType: 'strategic', phaseNumber: 3, jobCompleteCalled: false },
  'after a tactical phase': { phaseType: 'tactical', phaseNumber: 2, jobCompleteCalled: false },
  'after job_complete': { phaseType: 'tactical', phaseNumber: 4, jobCompleteCalled: true },
};

// Columns: initial strategic, later strategic, tactical, job_complete — the seed's freeze table.
const FREEZE_TABLE: Record<AutonomyLevel, [boolean, boolean, boolean, boolean]> = {
  full: [false, false, false, false],
  review: [false, false, false, true],
  partial: [true, false, false, true],
  guided: [true, true, false, true],
  dependent: [true, true, true, true],
};

const freezeRows = AUTONOMY_LEVELS.flatMap((level) =>
  Object.keys(BOUNDARIES).map((where, column) => [level, where, FREEZE_TABLE[level][column]!] as const),
);

describe('shouldFreeze', () => {
  it.each(freezeRows)('%s autonomy %s → freeze: %s', (autonomy, where, expected) => {
    expect(shouldFreeze({ autonomy, ...BOUNDARIES[where]! })).toBe(expected);
  });

  it('freezes a strategic phase at job_complete for review autonomy', () => {
    expect(
      shouldFreeze({ autonomy: 'review', phaseType: 'strategic', phaseNumber: 5, jobCompleteCalled: true }),
    ).toBe(true);
  });
});

describe('freezeContext', () => {
  it.each([
    ['after the initial strategic phase', 'initial_strategic'],
    ['after a later strategic phase', 'later_strategic'],
    ['after a tactical phase', 'tactical'],
    ['after job_complete', 'job_complete'],
  ])('classifies the boundary %s as %s', (where, context) => {
    expect(freezeContext(BOUNDARIES[where]!)).toBe(context);
  });

  it('treats job_complete on phase 1 as job_complete, not as the initial strategic freeze', () => {
    expect(freezeContext({ phaseType: 'strategic', phaseNumber: 1, jobCompleteCalled: true })).toBe(
      'job_complete',
    );
  });
});

describe('resumeAfterFreeze', () => {
  const approve = { approved: true } as const;
  const feedback = { feedback: 'cover the Postgres path too' };

  it.each([
    [
      'after the initial strategic phase',
      approve,
      {
        context: 'initial_strategic',
        next: 'tactical',
        phaseNumber: 2,
        phaseType: 'tactical',
        withFeedback: false,
      },
    ],
    [
      'after the initial strategic phase',
      feedback,
      {
        context: 'initial_strategic',
        next: 'strategic',
        phaseNumber: 1,
        phaseType: 'strategic',
        withFeedback: true,
      },
    ],
    [
      'after a later strategic phase',
      approve,
      {
        context: 'later_strategic',
        next: 'tactical',
        phaseNumber: 4,
        phaseType: 'tactical',
        withFeedback: false,
      },
    ],
    [
      'after a later strategic phase',
      feedback,
      {
        context: 'later_strategic',
        next: 'strategic',
        phaseNumber: 3,
        phaseType: 'strategic',
        withFeedback: true,
      },
    ],
    [
      'after a tactical phase',
      approve,
      { context: 'tactical', next: 'strategic', phaseNumber: 3, phaseType: 'strategic', withFeedback: false },
    ],
    [
      'after a tactical phase',
      feedback,
      {
        context: 'tactical',
        next: 'feedback_strategic',
        phaseNumber: 3,
        phaseType: 'strategic',
        withFeedback: true,
      },
    ],
    [
      'after job_complete',
      approve,
      {
        context: 'job_complete',
        next: 'completed',
        phaseNumber: 4,
        phaseType: 'tactical',
        withFeedback: false,
      },
    ],
    [
      'after job_complete',
      feedback,
      {
        context: 'job_complete',
        next: 'feedback_strategic',
        phaseNumber: 5,
        phaseType: 'strategic',
        withFeedback: true,
      },
    ],
  ])('resumes %s with %j as %j', (where, answer, expected) => {
    expect(resumeAfterFreeze(BOUNDARIES[where]!, answer)).toEqual(expected);
  });

  it.each([
    [{ feedback: '   ' }, 'feedback'],
    [{ feedback: 42 }, 'feedback'],
    [{ approved: false }, 'approved'],
  ])('refuses the answer %j naming %s', (answer, field) => {
    const boundary = BOUNDARIES['after a tactical phase']!;
    expect(validationError(() => resumeAfterFreeze(boundary, answer as never)).details.field).toBe(field);
  });

  it.each([0, -1, 1.5])('refuses phase number %d', (phaseNumber) => {
    const boundary = { phaseType: 'tactical', phaseNumber, jobCompleteCalled: false } as const;
    expect(validationError(() => resumeAfterFreeze(boundary, { approved: true })).details.field).toBe(
      'phaseNumber',
    );
  });
});

describe('EXPERT_AUTONOMY_DEFAULTS', () => {
  it.each([
    ['debugger', 'full'],
    ['researcher', 'partial'],
    ['writer', 'partial'],
    ['coder', 'partial'],
    ['validator', 'review'],
  ])('gives the %s expert %s autonomy', (profile, level) => {
    expect(EXPERT_AUTONOMY_DEFAULTS[profile]).toBe(level);
    expect(resolveAutonomy({ profile })).toBe(level);
  });

  it('gives every other expert the framework default, partial', () => {
    expect(FRAMEWORK_DEFAULT_AUTONOMY).toBe('partial');
    expect(resolveAutonomy({ profile: 'translator' })).toBe('partial');
    expect(resolveAutonomy({ profile: 'toString' })).toBe('partial');
  });
});

describe('resolveAutonomy', () => {
  it.each([
    [{}, 'partial'],
    [{ profile: null, agentDefault: null, runOverride: null }, 'partial'],
    [{ profile: 'Debugger ' }, 'full'],
    [{ profile: 'debugger', agentDefault: 'guided' }, 'guided'],
    [{ profile: 'debugger', agentDefault: 'guided', runOverride: 'dependent' }, 'dependent'],
    [{ profile: 'validator', runOverride: 'full' }, 'full'],
    [{ agentDefault: 'review' }, 'review'],
  ])('resolves %j to %s', (input, expected) => {
    expect(resolveAutonomy(input)).toBe(expected);
  });

  it.each([
    [{ runOverride: 'yolo' }, 'runOverride'],
    [{ agentDefault: 'FULL' }, 'agentDefault'],
    [{ agentDefault: 'full', runOverride: '' }, 'runOverride'],
  ])('refuses %j naming the field and the valid levels', (input, field) => {
    const error = validationError(() => resolveAutonomy(input));
    expect(error.details.field).toBe(field);
    expect(error.message).toContain('full, review, partial, guided, dependent');
  });
});

describe('prBehaviour', () => {
  // Columns: first strategic, later strategic, tactical, final — the seed's PR table.
  const A = 'auto_merge';
  const R = 'requires_approval';
  const PR_TABLE = {
    full: [A, A, A, A],
    review: [A, A, A, R],
    partial: [R, A, A, R],
    guided: [R, R, A, R],
    dependent: [R, R, R, R],
  } as const;
  const phases = [
    ['the first strategic PR', 'strategic', 1, false],
    ['a later strategic PR', 'strategic', 3, false],
    ['a tactical PR', 'tactical', 2, false],
    ['the final PR', 'tactical', 6, true],
  ] as const;
  const rows = AUTONOMY_LEVELS.flatMap((level) =>
    phases.map(
      ([name, type, n, final], column) => [level, name, type, n, final, PR_TABLE[level][column]] as const,
    ),
  );

  it.each(rows)('%s autonomy: %s → %s', (level, _name, type, n, final, expected) => {
    expect(prBehaviour(level, type, n, final)).toBe(expected);
  });
});

describe('phaseBranchName', () => {
  it.each([
    [1, 'strategic', undefined, 'phase-1-strategic'],
    [2, 'tactical', undefined, 'phase-2-tactical'],
    [1, 'strategic', 1, 'phase-1-strategic'],
    [1, 'strategic', 2, 'phase-1-strategic-rev-2'],
    [12, 'tactical', 3, 'phase-12-tactical-rev-3'],
  ] as const)('names phase %d %s revision %s %s', (n, type, revision, expected) => {
    expect(phaseBranchName(n, type, revision)).toBe(expected);
  });

  it.each([
    [0, 'strategic', undefined, 'phaseNumber'],
    [1.5, 'tactical', undefined, 'phaseNumber'],
    [1, 'strategic', 0, 'revision'],
    [1, 'strategic', 2.5, 'revision'],
    [1, 'main; rm -rf /', undefined, 'phaseType'],
  ])('refuses phase %d %s revision %s naming %s', (n, type, revision, field) => {
    expect(validationError(() => phaseBranchName(n, type as never, revision)).details.field).toBe(field);
  });
});
