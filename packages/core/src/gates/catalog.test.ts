import { describe, expect, it } from 'vitest';
import { DESTRUCTIVE_ALTERNATIVES } from '../destructive/destructive-alternatives.js';
import { BUILTIN_GATE_TYPES } from '../gate-types/index.js';
import { type GateTypeDefinition, gateTypeDefinitionSchema } from '../schemas.js';
import { canProceedOnTimeout, createGateCatalog, endingOptions, findOption } from './catalog.js';

const catalog = createGateCatalog();
const REVIEW = ['approve a approved', 'reject r rejected', 'steer s steered'];
const TOOL = ['approve a approved', 'approve_always w approved', 'reject r rejected', 'steer s steered'];
const ROLLBACK = ['approve a approved', 'reject_rollback r rejected', 'steer s steered'];

function customType(overrides: Partial<GateTypeDefinition> = {}): Record<string, unknown> {
  return {
    type: 'budget_review',
    title: 'Budget review',
    trigger: 'spend above the monthly limit',
    threshold: 'advisory',
    defaultRisk: 'low',
    defaultTimeoutAction: 'deny',
    options: [
      { id: 'approve', label: 'Approve', key: 'a', description: 'Spend it', ends: true, outcome: 'approved' },
      { id: 'details', label: 'Details', key: 'd', description: 'Show the bill', ends: false },
    ],
    steerable: false,
    minRole: 'developer',
    signature: 'never',
    retentionDays: 30,
    ...overrides,
  };
}

function describeOptions(type: string): string[] {
  return catalog.get(type).options.map((o) => `${o.id} ${o.key} ${o.ends ? o.outcome : 'shows'}`);
}

describe('built-in gate types', () => {
  it.each([
    ['tool_call', TOOL],
    ['operation', TOOL],
    ['intent_approval', ROLLBACK],
    ['confidence_threshold', ROLLBACK],
    ['constraint_exception', ['expand_constraint 1 resolved', 'reduce_scope 2 resolved', 'abort 3 resolved']],
    [
      'recovery_escalation',
      [
        'approve a approved',
        'reject r rejected',
        'retry 1 resolved',
        'view 2 shows',
        'delegate 3 resolved',
        'abort 4 resolved',
      ],
    ],
    [
      'false_positive_override',
      [
        'legitimate 1 resolved',
        'violation 2 resolved',
        'needs_review 3 resolved',
        'diff 4 shows',
        'history 5 shows',
        'whitelist 6 resolved',
      ],
    ],
    [
      'destructive_action',
      [
        'approve a approved',
        'reject r rejected',
        'view 1 shows',
        'diff 2 shows',
        'suggest 3 steered',
        'abort 4 resolved',
      ],
    ],
    ['phase_review', ['approve a approved', 'request_changes 1 resolved']],
    ['prd_review', REVIEW],
    ['design_review', REVIEW],
    ['code_review', REVIEW],
    ['test_review', REVIEW],
    ['deployment_approval', REVIEW],
    ['question', ['answer 1 resolved', 'reject r rejected']],
  ])('%s offers its seed option set with keys and outcomes', (type, expected) => {
    expect(describeOptions(type)).toEqual(expected);
  });

  it('covers exactly the catalog of the design', () => {
    expect(BUILTIN_GATE_TYPES.map((d) => d.type)).toHaveLength(15);
  });

  it.each(BUILTIN_GATE_TYPES.map((d) => [d.type, d] as const))(
    '%s is a valid definition',
    (_type, definition) => {
      expect(gateTypeDefinitionSchema.parse(definition)).toEqual(definition);
      const keys = definition.options.map((o) => o.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(endingOptions(definition).length).toBeGreaterThan(0);
    },
  );

  it.each([
    ['steer', 'tool_call', ['instructions']],
    ['steer', 'intent_approval', ['instructions']],
    ['request_changes', 'phase_review', ['feedback']],
    ['suggest', 'destructive_action', ['instructions']],
    ['whitelist', 'false_positive_override', ['reason']],
    ['reject', 'destructive_action', []],
  ])('option %s of %s requires %j', (id, type, requires) => {
    expect(findOption(catalog.get(type), id)?.requires).toEqual(requires);
  });

  it('names the suggested alternatives on the destructive reject option', () => {
    expect(findOption(catalog.get('destructive_action'), 'reject')?.description).toMatch(/alternative/);
  });

  it.each([
    ['recovery_escalation', 'developer', 'never'],
    ['false_positive_override', 'developer', 'always'],
    ['destructive_action', 'tech_lead', 'critical'],
    ['deployment_approval', 'tech_lead', 'critical'],
  ])('%s needs role %s and signature %s (access-control table)', (type, minRole, signature) => {
    expect(catalog.get(type)).toMatchObject({ minRole, signature });
  });

  it.each([
    ['recovery_escalation', 90],
    ['false_positive_override', 365],
    ['destructive_action', 365],
    ...BUILTIN_GATE_TYPES.filter((d) => !/recovery|false_positive|destructive/.test(d.type)).map(
      (d) => [d.type, 365] as [string, number],
    ),
  ])('%s keeps its decisions for %i days', (type, days) => {
    expect(catalog.get(type).retentionDays).toBe(days);
  });

  it.each([
    ['intent_approval', 'mandatory'],
    ['confidence_threshold', 'conditional'],
    ['constraint_exception', 'advisory'],
  ])('%s is %s', (type, threshold) => {
    expect(catalog.get(type).threshold).toBe(threshold);
  });

  it.each(['recovery_escalation', 'false_positive_override', 'destructive_action', 'intent_approval'])(
    '%s never defaults to proceed on timeout',
    (type) => {
      expect(['deny', 'escalate']).toContain(catalog.get(type).defaultTimeoutAction);
    },
  );

  it('marks only the show-more options as not ending the gate', () => {
    const shows = BUILTIN_GATE_TYPES.flatMap((d) => d.options.filter((o) => !o.ends).map((o) => o.id));
    expect(new Set(shows)).toEqual(new Set(['view', 'diff', 'history']));
  });

  it('is frozen so nobody changes the shared definitions', () => {
    const definition = catalog.get('tool_call');
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.options[0])).toBe(true);
  });
});

describe('DESTRUCTIVE_ALTERNATIVES', () => {
  it.each([
    ['test_deletion', 'Test deletion', 'Fix failing tests instead of deleting'],
    ['test_skip', 'Test skip', 'Mock dependencies, fix timing issues'],
    ['feature_removal', 'Feature removal', 'Use feature flag, mark deprecated first'],
    ['assertion_weakening', 'Assertion weakening', 'Fix implementation to meet assertion'],
    ['coverage_regression', 'Coverage regression', 'Add tests to maintain coverage'],
  ])('suggests an alternative to %s', (kind, action, alternative) => {
    expect(DESTRUCTIVE_ALTERNATIVES.find((row) => row.kind === kind)).toEqual({ kind, action, alternative });
  });
});

describe('createGateCatalog', () => {
  it('finds built-in types and lists them in catalog order', () => {
    expect(catalog.has('phase_review')).toBe(true);
    expect(catalog.has('nope')).toBe(false);
    expect(catalog.list().map((d) => d.type)).toEqual(BUILTIN_GATE_TYPES.map((d) => d.type));
  });

  it('refuses an unknown type with UNKNOWN_GATE_TYPE naming it', () => {
    expect(() => catalog.get('launch_rocket')).toThrowError(
      expect.objectContaining({
        code: 'UNKNOWN_GATE_TYPE',
        message: expect.stringContaining('"launch_rocket"'),
      }),
    );
  });

  it('registers a custom type with its own options and keeps it local to that catalog', () => {
    const local = createGateCatalog();
    const stored = local.register(customType());
    expect(stored.options[1]?.requires).toEqual([]);
    expect(local.get('budget_review').title).toBe('Budget review');
    expect(local.list().at(-1)?.type).toBe('budget_review');
    expect(createGateCatalog().has('budget_review')).toBe(false);
  });

  it('stores a copy the caller cannot change afterwards', () => {
    const local = createGateCatalog();
    const input = customType();
    local.register(input);
    (input.options as { label: string }[])[0]!.label = 'Changed';
    expect(local.get('budget_review').options[0]?.label).toBe('Approve');
  });

  it.each([
    ['a built-in type', customType({ type: 'tool_call' }), 'type', /built-in/],
    ['a bad type id', customType({ type: 'Bad Type' }), 'type', /snake_case/],
    ['a missing title', { ...customType(), title: undefined }, 'title', /./],
    [
      'duplicate option ids',
      customType({
        options: [
          { id: 'go', label: 'Go', key: 'g', description: '', ends: true, outcome: 'approved', requires: [] },
          {
            id: 'go',
            label: 'Go 2',
            key: 'h',
            description: '',
            ends: true,
            outcome: 'approved',
            requires: [],
          },
        ],
      }),
      'options[1].id',
      /used twice/,
    ],
    [
      'duplicate keys',
      customType({
        options: [
          { id: 'go', label: 'Go', key: 'g', description: '', ends: true, outcome: 'approved', requires: [] },
          {
            id: 'stop',
            label: 'Stop',
            key: 'G',
            description: '',
            ends: true,
            outcome: 'rejected',
            requires: [],
          },
        ],
      }),
      'options[1].key',
      /used twice/,
    ],
    [
      'no ending option',
      customType({
        options: [{ id: 'view', label: 'View', key: 'v', description: '', ends: false, requires: [] }],
      }),
      'options',
      /end the gate/,
    ],
    [
      'an ending option without outcome',
      customType({
        options: [{ id: 'go', label: 'Go', key: 'g', description: '', ends: true, requires: [] }],
      }),
      'options[0].outcome',
      /required/,
    ],
    [
      'a show-more option with an outcome',
      customType({
        options: [
          { id: 'go', label: 'Go', key: 'g', description: '', ends: true, outcome: 'approved', requires: [] },
          {
            id: 'view',
            label: 'View',
            key: 'v',
            description: '',
            ends: false,
            outcome: 'resolved',
            requires: [],
          },
        ],
      }),
      'options[1].outcome',
      /leave it out/,
    ],
    [
      'proceed on a mandatory type',
      customType({ threshold: 'mandatory', defaultTimeoutAction: 'proceed' }),
      'defaultTimeoutAction',
      /mandatory/,
    ],
    [
      'proceed at high risk',
      customType({ defaultRisk: 'high', defaultTimeoutAction: 'proceed' }),
      'defaultTimeoutAction',
      /high/,
    ],
  ])('refuses %s with VALIDATION_FAILED naming the field', (_case, definition, field, message) => {
    const local = createGateCatalog();
    try {
      local.register(definition);
      expect.unreachable('register should have thrown');
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(field);
    }
  });

  it('gives a custom type the one key map, whatever keys it was registered with', () => {
    const local = createGateCatalog();
    const stored = local.register(customType());
    expect(stored.options.map((o) => `${o.id} ${o.key}`)).toEqual(['approve a', 'details 1']);
  });

  it('refuses a custom type with more than nine gate-specific options, as only 1-9 are keys', () => {
    const options = Array.from({ length: 10 }, (_, i) => ({
      id: `pick_${i}`,
      label: `Pick ${i}`,
      key: String.fromCharCode(98 + i),
      description: '',
      ends: true,
      outcome: 'resolved',
    }));
    expect(() =>
      createGateCatalog().register(customType({ options } as Partial<GateTypeDefinition>)),
    ).toThrowError(/options: at most 9/);
  });

  it('refuses to register the same custom type twice', () => {
    const local = createGateCatalog();
    local.register(customType());
    expect(() => local.register(customType({ title: 'Other' }))).toThrowError(/already registered/);
  });

  it('accepts proceed as default timeout for a low-risk advisory custom type', () => {
    const local = createGateCatalog();
    expect(local.register(customType({ defaultTimeoutAction: 'proceed' })).defaultTimeoutAction).toBe(
      'proceed',
    );
  });
});

describe('option helpers', () => {
  it('finds an option by id and lists the ending ones', () => {
    const recovery = catalog.get('recovery_escalation');
    expect(findOption(recovery, 'retry')?.key).toBe('1');
    expect(findOption(recovery, 'whitelist')).toBeUndefined();
    expect(endingOptions(recovery).map((o) => o.id)).toEqual([
      'approve',
      'reject',
      'retry',
      'delegate',
      'abort',
    ]);
  });
});

describe('canProceedOnTimeout', () => {
  const base = { risk: 'medium' as const, alwaysGated: false, destructive: false };
  it.each([
    ['tool_call', base, true],
    ['confidence_threshold', base, true],
    ['tool_call', { ...base, risk: 'low' as const }, true],
    ['tool_call', { ...base, risk: 'high' as const }, false],
    ['tool_call', { ...base, risk: 'critical' as const }, false],
    ['tool_call', { ...base, alwaysGated: true }, false],
    ['tool_call', { ...base, destructive: true }, false],
    ['tool_call', { ...base, threshold: 'mandatory' as const }, false],
    ['intent_approval', base, false],
    ['recovery_escalation', { ...base, risk: 'low' as const }, false],
    ['false_positive_override', { ...base, risk: 'low' as const }, false],
    ['destructive_action', { ...base, risk: 'low' as const }, false],
    ['constraint_exception', base, false],
  ])('%s with %j → %s', (type, input, expected) => {
    expect(canProceedOnTimeout({ definition: catalog.get(type), ...input })).toBe(expected);
  });
});
