import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import {
  BAND_ACTIONS,
  type CheckApprovalInput,
  checkApproval,
  confidenceBand,
  confidenceDiagnostics,
  DEFAULT_CONFIDENCE_CONFIG,
  evaluateConfidenceReport,
  loadConfidenceConfig,
  normalizeConfidence,
  resolveConfidenceConfig,
  type ScoreConfidenceInput,
  type ScoredToolCall,
  scoreConfidence,
} from './confidence.js';

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

describe('normalizeConfidence', () => {
  it.each([
    [{ score: 0 }, 0],
    [{ score: 85 }, 0.85],
    [{ score: 100 }, 1],
    [{ confidence: 0 }, 0],
    [{ confidence: 0.42 }, 0.42],
    [{ confidence: 1 }, 1],
  ])('stores %j as %d on the 0-1 scale', (input, expected) => {
    expect(normalizeConfidence(input)).toBeCloseTo(expected, 12);
  });

  it.each([
    [{ score: -1 }, 'score'],
    [{ score: 101 }, 'score'],
    [{ score: Number.NaN }, 'score'],
    [{ confidence: 1.01 }, 'confidence'],
    [{ confidence: -0.1 }, 'confidence'],
    [{ confidence: Number.POSITIVE_INFINITY }, 'confidence'],
  ])('refuses %j naming the field %s', (input, field) => {
    const error = validationError(() => normalizeConfidence(input));
    expect(error.details.field).toBe(field);
    expect(error.message).toContain(field);
  });

  it.each([[{ score: 85.5 }], [{ score: 0.5 }], [{ score: 99.99 }]])(
    'refuses a score that is not a whole number, as seed 000 gives it (score: int, 0-100): %j',
    (input) => {
      const error = validationError(() => normalizeConfidence(input));
      expect(error.details.field).toBe('score');
      expect(error.message).toContain('score must be a whole number');
    },
  );

  it('keeps confidence on the 0-1 scale a fraction', () => {
    expect(normalizeConfidence({ confidence: 0.855 })).toBe(0.855);
  });

  it.each([[{}], [{ score: 50, confidence: 0.5 }], [{ score: undefined }]])(
    'requires exactly one of score and confidence (%j)',
    (input) => {
      const error = validationError(() => normalizeConfidence(input as { score?: number }));
      expect(error.message).toContain('exactly one of score (0-100) or confidence (0-1)');
    },
  );
});

describe('confidenceBand', () => {
  it.each([
    [1, 'high'],
    [0.8, 'high'],
    [0.7999, 'medium'],
    [0.5, 'medium'],
    [0.4999, 'low'],
    [0.2, 'low'],
    [0.1999, 'zero'],
    [0, 'zero'],
  ] as const)('puts %d in the %s band', (confidence, band) => {
    expect(confidenceBand(confidence)).toBe(band);
  });

  it.each([
    [80, 'high'],
    [50, 'medium'],
    [20, 'low'],
    [19, 'zero'],
  ] as const)('puts a score of %d exactly on the seed boundary (%s)', (score, band) => {
    expect(confidenceBand(normalizeConfidence({ score }))).toBe(band);
  });

  it('refuses a confidence outside 0-1', () => {
    expect(validationError(() => confidenceBand(1.5)).details.field).toBe('confidence');
  });
});

describe('BAND_ACTIONS', () => {
  // Seed 003's band table: high proceeds, medium auto-proceeds, low hard-stops; zero aborts the
  // subtask, presents diagnostics and waits for a human decision.
  it.each([
    ['high', 'proceed', false, false, false],
    ['medium', 'auto_proceed', false, true, false],
    ['low', 'hard_stop', true, false, false],
    ['zero', 'abort_subtask', true, false, true],
  ] as const)(
    '%s confidence → %s (decision required: %s, auto-proceed: %s, aborts the subtask: %s)',
    (band, action, decides, auto, aborts) => {
      expect(BAND_ACTIONS[band]).toMatchObject({
        action,
        requiresDecision: decides,
        autoProceed: auto,
        abortsSubtask: aborts,
        presentsDiagnostics: aborts,
      });
    },
  );

  it('tells a person what the zero band does', () => {
    expect(BAND_ACTIONS.zero.description).toMatch(/abort the subtask, present diagnostics/i);
  });
});

describe('loadConfidenceConfig', () => {
  it('uses the seed defaults when no variable is set', () => {
    expect(loadConfidenceConfig({})).toEqual({
      threshold: 90,
      enabled: true,
      autoEscalate: true,
      autoProceedDelayMs: 10_000,
    });
  });

  it.each([
    ['CONFIDENCE_THRESHOLD', '75', { threshold: 75 }],
    ['CONFIDENCE_THRESHOLD', '0', { threshold: 0 }],
    ['CONFIDENCE_THRESHOLD', '100', { threshold: 100 }],
    ['CONFIDENCE_THRESHOLD', ' 62.5 ', { threshold: 62.5 }],
    ['CONFIDENCE_THRESHOLD', '', { threshold: 90 }],
    ['CONFIDENCE_THRESHOLD', undefined, { threshold: 90 }],
    ['CONFIDENCE_ENABLED', 'false', { enabled: false }],
    ['CONFIDENCE_ENABLED', '0', { enabled: false }],
    ['CONFIDENCE_ENABLED', 'TRUE', { enabled: true }],
    ['CONFIDENCE_ENABLED', undefined, { enabled: true }],
    ['CONFIDENCE_AUTO_ESCALATE', 'false', { autoEscalate: false }],
    ['CONFIDENCE_AUTO_ESCALATE', '1', { autoEscalate: true }],
    ['CONFIDENCE_AUTO_ESCALATE', undefined, { autoEscalate: true }],
  ])('reads %s=%j', (name, value, expected) => {
    expect(loadConfidenceConfig({ [name]: value })).toEqual({ ...DEFAULT_CONFIDENCE_CONFIG, ...expected });
  });

  it.each([
    ['CONFIDENCE_THRESHOLD', '101'],
    ['CONFIDENCE_THRESHOLD', '-5'],
    ['CONFIDENCE_THRESHOLD', 'ninety'],
    ['CONFIDENCE_THRESHOLD', '1e2'],
    ['CONFIDENCE_ENABLED', 'maybe'],
    ['CONFIDENCE_AUTO_ESCALATE', 'yes please'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    const error = validationError(() => loadConfidenceConfig({ [name]: value }));
    expect(error.details.field).toBe(name);
    expect(error.message).toContain(`"${value}"`);
  });
});

describe('resolveConfidenceConfig', () => {
  const global = { ...DEFAULT_CONFIDENCE_CONFIG };

  it('keeps the global config without overrides', () => {
    expect(resolveConfidenceConfig(global)).toEqual(global);
    expect(resolveConfidenceConfig(global, null, null)).toEqual(global);
  });

  it('lets the agent override the global config and the run override the agent', () => {
    const config = resolveConfidenceConfig(
      global,
      { threshold: 70, autoEscalate: false },
      { threshold: 95, autoProceedDelayMs: 0 },
    );
    expect(config).toEqual({ threshold: 95, enabled: true, autoEscalate: false, autoProceedDelayMs: 0 });
  });

  it('ignores fields an override leaves undefined', () => {
    expect(resolveConfidenceConfig(global, { threshold: undefined, enabled: false })).toEqual({
      ...global,
      enabled: false,
    });
  });

  it('does not change the global config it was given', () => {
    resolveConfidenceConfig(global, { threshold: 10 });
    expect(global.threshold).toBe(90);
  });

  it.each([
    [{ threshold: 120 }, 'threshold'],
    [{ threshold: Number.NaN }, 'threshold'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ autoEscalate: 1 }, 'autoEscalate'],
    [{ autoProceedDelayMs: -1 }, 'autoProceedDelayMs'],
    [{ autoProceedDelayMs: 2.5 }, 'autoProceedDelayMs'],
  ])('refuses the override %j naming the field', (override, field) => {
    const error = validationError(() => resolveConfidenceConfig(global, undefined, override as never));
    expect(error.details.field).toBe(field);
    expect(error.message).toContain('run override');
  });
});

describe('evaluateConfidenceReport', () => {
  const config = DEFAULT_CONFIDENCE_CONFIG;

  it.each([
    [{ score: 85 }, true, 'high', 'confidence 85 is below the threshold 90'],
    [{ confidence: 0.899 }, true, 'high', 'below the threshold'],
    [{ score: 90 }, false, 'high', 'confidence 90 meets the threshold 90'],
    [{ confidence: 0.9 }, false, 'high', 'meets the threshold'],
    [{ confidence: 0.1 }, true, 'zero', 'confidence 10 is below'],
    [{ score: 100 }, false, 'high', 'meets'],
    [{ score: 60 }, true, 'medium', 'confidence 60 is below'],
  ] as const)('report %j escalates: %s (band %s)', (report, escalate, band, reason) => {
    const result = evaluateConfidenceReport(report, config);
    expect(result).toMatchObject({ escalate, band });
    expect(result.reason).toContain(reason);
  });

  it('never escalates when confidence checks are disabled', () => {
    const result = evaluateConfidenceReport({ score: 5 }, { ...config, enabled: false });
    expect(result).toMatchObject({ escalate: false, band: 'zero' });
    expect(result.reason).toContain('disabled');
  });

  it('records a low report without escalating when auto-escalation is off', () => {
    const result = evaluateConfidenceReport({ score: 40 }, { ...config, autoEscalate: false });
    expect(result).toMatchObject({ escalate: false, band: 'low', confidence: 0.4 });
    expect(result.reason).toContain('auto-escalation is off');
  });

  it('compares a score equal to a fractional threshold as meeting it', () => {
    for (const score of [29, 57, 58, 83]) {
      expect(evaluateConfidenceReport({ score }, { ...config, threshold: score }).escalate).toBe(false);
    }
  });

  it('aborts the subtask in the zero band and tells why', () => {
    const zero = evaluateConfidenceReport({ score: 10 }, config);
    expect(zero).toMatchObject({ escalate: true, band: 'zero', abortSubtask: true });
    expect(zero.reason).toContain('zero band');
    expect(zero.reason).toContain('abort the subtask');
    const low = evaluateConfidenceReport({ score: 20 }, config);
    expect(low).toMatchObject({ escalate: true, band: 'low', abortSubtask: false });
    expect(low.reason).not.toContain('abort');
  });

  it('escalates a zero-band report even under a threshold below the band', () => {
    const lenient = { ...config, threshold: 10 };
    expect(evaluateConfidenceReport({ score: 15 }, lenient)).toMatchObject({
      escalate: true,
      band: 'zero',
      abortSubtask: true,
    });
    expect(evaluateConfidenceReport({ score: 25 }, lenient)).toMatchObject({
      escalate: false,
      band: 'low',
      abortSubtask: false,
    });
  });

  it('still aborts the subtask when auto-escalation is off, and does nothing when checks are disabled', () => {
    const noGate = evaluateConfidenceReport({ score: 5 }, { ...config, autoEscalate: false });
    expect(noGate).toMatchObject({ escalate: false, abortSubtask: true });
    expect(noGate.reason).toContain('auto-escalation is off');
    const off = evaluateConfidenceReport({ score: 5 }, { ...config, enabled: false });
    expect(off).toMatchObject({ escalate: false, abortSubtask: false });
  });

  it('refuses an invalid report', () => {
    expect(validationError(() => evaluateConfidenceReport({ score: 150 }, config)).details.field).toBe(
      'score',
    );
  });
});

function scoreInput(overrides: Partial<ScoreConfidenceInput> = {}): ScoreConfidenceInput {
  return {
    verification: { tier: 0, checks: [], confidence: 0 },
    retryCount: 0,
    maxRetries: 3,
    toolCalls: [],
    ...overrides,
  };
}

const shell = (command: string, success = true): ScoredToolCall => ({
  tool: 'shell_execute',
  args: { command },
  success,
});
const read: ScoredToolCall = { tool: 'read_file', args: { path: 'a.ts' }, success: true };

describe('scoreConfidence', () => {
  it.each([
    ['no verification, no retries, no tool calls', scoreInput(), 1],
    [
      'tier 1 with half the checks passing',
      scoreInput({ verification: { tier: 1, checks: [{ passed: true }, { passed: false }], confidence: 0 } }),
      (0.15 + 0.2 + 0.1 + 0.1) / 0.7,
    ],
    [
      'tier 1 with no checks at all',
      scoreInput({ verification: { tier: 1, checks: [], confidence: 0.9 } }),
      0.4 / 0.7,
    ],
    [
      'tier 2 adds the verification confidence',
      scoreInput({ verification: { tier: 2, checks: [{ passed: true }], confidence: 0.5 } }),
      (0.3 + 0.15 + 0.2 + 0.1 + 0.1) / 1,
    ],
    ['one retry of three', scoreInput({ retryCount: 1 }), (0.2 * (2 / 3) + 0.2) / 0.4],
    ['retries beyond the maximum cap the penalty', scoreInput({ retryCount: 9 }), 0.2 / 0.4],
    ['no retries allowed and none used', scoreInput({ maxRetries: 0 }), 1],
    ['no retries allowed but one used', scoreInput({ maxRetries: 0, retryCount: 1 }), 0.2 / 0.4],
    ['a destructive shell command', scoreInput({ toolCalls: [shell('rm -rf build')] }), 0.3 / 0.4],
    ['a DROP TABLE in any case', scoreInput({ toolCalls: [shell('psql -c "DROP TABLE users"')] }), 0.3 / 0.4],
    ['a harmless shell command', scoreInput({ toolCalls: [shell('npm test')] }), 1],
    [
      'destructive words outside a shell tool',
      scoreInput({ toolCalls: [{ tool: 'write_file', args: { command: 'rm -rf /' }, success: true }] }),
      1,
    ],
    ['half the tool calls failed', scoreInput({ toolCalls: [read, shell('ls', false)] }), 0.35 / 0.4],
    [
      'tier 2, all checks passing, full confidence',
      scoreInput({ verification: { tier: 2, checks: [{ passed: true }], confidence: 1 }, toolCalls: [read] }),
      1,
    ],
  ])('scores %s', (_name, input, expected) => {
    expect(scoreConfidence(input)).toBeCloseTo(expected, 10);
  });

  // Seed 003: `if any(p in cmd.lower() for p in destructive_patterns):` — the command is lower-cased first.
  it.each(['RM -RF /', 'Rm -rf build', 'GIT PUSH --FORCE origin main', 'TRUNCATE TABLE users'])(
    'lower-cases %s before looking for destructive patterns, as the seed does',
    (command) => {
      const upper = scoreConfidence(scoreInput({ toolCalls: [shell(command)] }));
      expect(upper).toBeCloseTo(0.3 / 0.4, 10);
      expect(upper).toBe(scoreConfidence(scoreInput({ toolCalls: [shell(command.toLowerCase())] })));
    },
  );

  it('keeps a flag whose case matters destructive: git branch -D', () => {
    const score = scoreConfidence(scoreInput({ toolCalls: [shell('git branch -D feature')] }));
    expect(score).toBeCloseTo(0.3 / 0.4, 10);
  });

  it('ignores a shell command that is not text', () => {
    expect(
      scoreConfidence(scoreInput({ toolCalls: [{ tool: 'bash', args: { command: 42 }, success: true }] })),
    ).toBe(1);
  });

  it.each([
    [{ verification: { tier: -1, checks: [], confidence: 0 } }, 'verification.tier'],
    [{ verification: { tier: 1.5, checks: [], confidence: 0 } }, 'verification.tier'],
    [{ verification: { tier: 2, checks: [], confidence: 2 } }, 'verification.confidence'],
    [{ retryCount: -1 }, 'retryCount'],
    [{ maxRetries: -3 }, 'maxRetries'],
    [{ maxRetries: Number.NaN }, 'maxRetries'],
  ])('refuses %j naming the field', (overrides, field) => {
    expect(validationError(() => scoreConfidence(scoreInput(overrides))).details.field).toBe(field);
  });
});

describe('confidenceDiagnostics', () => {
  it('says the subtask is aborted and lists the earlier reports of the run, oldest first', () => {
    const lines = confidenceDiagnostics({
      confidence: 0.1,
      taskId: 'task-7',
      earlier: [
        { confidence: 0.45, taskId: 'task-7' },
        { confidence: 0.3, taskId: null },
      ],
    });
    expect(lines).toEqual([
      'Subtask task-7 aborted: confidence 10 / 100 is in the zero band (below 20).',
      'Earlier reports on this run: 45 (task-7), 30.',
    ]);
  });

  it('says so when there are no earlier reports', () => {
    expect(confidenceDiagnostics({ confidence: 0, taskId: null, earlier: [] })).toEqual([
      'Subtask aborted: confidence 0 / 100 is in the zero band (below 20).',
      'No earlier reports on this run.',
    ]);
  });
});

describe('checkApproval', () => {
  it.each<[CheckApprovalInput, string]>([
    [{ mode: 'auto', confidence: 0.95, alwaysGated: false }, 'proceed'],
    [{ mode: 'auto', confidence: 0.8, alwaysGated: false }, 'proceed'],
    [{ mode: 'auto', confidence: 0.79, alwaysGated: false }, 'wait_with_timeout'],
    [{ mode: 'auto', confidence: 0.5, alwaysGated: false }, 'wait_with_timeout'],
    [{ mode: 'auto', confidence: 0.49, alwaysGated: false }, 'wait'],
    [{ mode: 'auto', confidence: 0.1, alwaysGated: false }, 'wait'],
    [{ mode: 'auto', confidence: 1, alwaysGated: true }, 'wait'],
    [{ mode: 'manual', confidence: 1, alwaysGated: false }, 'wait'],
    [{ mode: 'manual', confidence: 0, alwaysGated: true }, 'wait'],
    [{ mode: 'confidence_threshold', confidence: 0.8, alwaysGated: false }, 'proceed'],
    [{ mode: 'confidence_threshold', confidence: 0.79, alwaysGated: false }, 'wait'],
    [{ mode: 'confidence_threshold', confidence: 0.99, alwaysGated: true }, 'wait'],
    [{ mode: 'confidence_threshold', confidence: 0.6, alwaysGated: false, threshold: 0.6 }, 'proceed'],
    [{ mode: 'confidence_threshold', confidence: 0.85, alwaysGated: false, threshold: 0.9 }, 'wait'],
    [{ mode: 'confidence_threshold', confidence: 0.6, alwaysGated: false, threshold: undefined }, 'wait'],
  ])('%j → %s', (input, expected) => {
    expect(checkApproval(input)).toBe(expected);
  });

  it.each([
    [0.79, 'wait'],
    [0.799999, 'wait'],
    [0.8, 'proceed'],
    [79 / 100, 'wait'],
    [80 / 100, 'proceed'],
  ] as const)(
    'in confidence_threshold mode with threshold 0.8, confidence %d: %s',
    (confidence, expected) => {
      const input = { mode: 'confidence_threshold', confidence, alwaysGated: false, threshold: 0.8 } as const;
      expect(checkApproval(input)).toBe(expected);
    },
  );

  it('waits when the confidence is not a number', () => {
    expect(checkApproval({ mode: 'auto', confidence: Number.NaN, alwaysGated: false })).toBe('wait');
  });

  it('refuses an unknown approval mode', () => {
    expect(() => checkApproval({ mode: 'yolo' as never, confidence: 1, alwaysGated: false })).toThrow(
      GatehouseError,
    );
  });
});
