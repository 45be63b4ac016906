import { describe, expect, it } from 'vitest';
import { HIDDEN_CHARACTERS_WARNING } from '../reveal.js';
import type { Gate } from '../schemas.js';
import { makeGate, RECOVERY_OPTIONS } from '../testing/gates.js';
import { type Briefing, buildBriefing } from './briefing.js';

const BAD_WORDS = /undefined|\bnull\b|\[object Object\]|NaN|Infinity/;

/** Every piece of text a reviewer sees. */
function briefingText(b: Briefing): string {
  const sections = b.sections.flatMap((s) => [
    s.title,
    ...s.fields.flatMap((f) => [f.label, f.value]),
    ...s.lines,
  ]);
  return [
    b.summary,
    b.details,
    ...sections,
    ...b.artifacts,
    ...b.recoveryHistory,
    b.agent ?? '',
    b.constraintInfo ?? '',
    b.proposedAction?.tool ?? '',
    b.proposedAction?.operation ?? '',
    b.proposedAction?.argsSummary ?? '',
    ...b.options.flatMap((o) => [o.id, o.label, o.key, o.description]),
  ].join('\n');
}

const shell = { tool: 'Bash', args: { command: 'rm -rf build', cwd: '/work' } };

/** One realistic gate per type, with what its briefing must show. */
const RICH: [string, Partial<Gate>, string[]][] = [
  [
    'tool_call',
    {
      action: shell,
      policyRuleId: 'shell-needs-approval',
      context: { reason: 'shell execution needs approval' },
    },
    ['Bash', 'rm -rf build', 'shell-needs-approval', 'shell execution needs approval', 'cwd=/work'],
  ],
  [
    'operation',
    {
      action: { operation: 'delete_file', args: { path: 'src/old.ts' } },
      context: { reason: 'file deletion' },
    },
    ['delete_file', 'src/old.ts', 'file deletion'],
  ],
  [
    'intent_approval',
    {
      context: {
        epic: 'Add user login',
        design: { summary: 'JWT sessions behind the API gateway' },
        stories: [{ title: 'Log in with email' }, { title: 'Log out' }],
        tasks: [{ hours: 3 }, { hours: 4.5 }, { title: 'docs' }],
        workItem: '.workitems/P01-F02-login/',
      },
    },
    [
      'Add user login',
      'JWT sessions behind the API gateway',
      '2 user stories with acceptance criteria',
      '3 atomic tasks, estimated total 7.5 hours',
      'Log in with email',
      '.workitems/P01-F02-login/design.md',
      '.workitems/P01-F02-login/user_stories.md',
      '.workitems/P01-F02-login/tasks.md',
    ],
  ],
  [
    'confidence_threshold',
    {
      context: {
        score: 72,
        threshold: 90,
        task: 'Refactor billing',
        reasons: ['unclear spec', 'no tests for refunds'],
        output: 'diff --git a/b.ts\n+ refund()',
      },
    },
    [
      '72 / 100 (medium)',
      '90 / 100',
      'Refactor billing',
      'unclear spec',
      'no tests for refunds',
      '+ refund()',
    ],
  ],
  [
    'constraint_exception',
    {
      context: {
        task: 'Index the archive',
        constraint: 'budget of 4 hours',
        required_change: 'allow 10 hours or drop PDFs',
      },
    },
    ['Index the archive', 'budget of 4 hours', 'allow 10 hours or drop PDFs'],
  ],
  [
    'recovery_escalation',
    {
      options: RECOVERY_OPTIONS,
      context: {
        task_description: 'Implement JWT authentication',
        pattern_type: 'hardcoded_test_bypass',
        severity: 'CRITICAL',
        recovery_attempts: 3,
        files: ['src/auth/login.ts'],
        original_error: "jwt.verify() throws 'invalid signature'",
        detected_at: Date.UTC(2026, 1, 3, 10, 30),
        recovery_history: [
          { iteration: 1, action: 'Removed bypass', result: 'added NODE_ENV check' },
          'Iteration 2: Removed NODE_ENV',
        ],
        current_state: { tests: 'Failing', coverage: 85, coverage_maintained: true },
        confidence: 0.45,
      },
    },
    [
      'hardcoded_test_bypass (CRITICAL)',
      '3 / 3',
      'src/auth/login.ts',
      "jwt.verify() throws 'invalid signature'",
      '2026-02-03T10:30:00.000Z',
      'Iteration 1: Removed bypass, added NODE_ENV check',
      'Iteration 2: Removed NODE_ENV',
      '85% (maintained)',
      '0.45 (low)',
    ],
  ],
  [
    'false_positive_override',
    {
      context: {
        file: 'test/auth.test.ts',
        pattern: 'test_skip',
        detection_confidence: 0.62,
        reported_by: 'dana',
        report: 'The skip is for a platform-only test.',
      },
    },
    ['test/auth.test.ts', 'test_skip', '0.62', 'dana', 'platform-only test'],
  ],
  [
    'destructive_action',
    {
      context: {
        action_type: 'test_deletion',
        tests_removed: 3,
        coverage_delta: -4.5,
        features_removed: 0,
        files: ['test/a.test.ts', 'test/b.test.ts'],
      },
    },
    [
      'Test deletion',
      '3 tests removed',
      '-4.5%',
      'Fix failing tests instead of deleting',
      'Add tests to maintain coverage',
    ],
  ],
  [
    'phase_review',
    {
      context: {
        phase_number: 2,
        phase_type: 'tactical',
        files_changed: ['src/a.ts', 'src/b.ts'],
        retrospective: 'Built the parser.\nDeferred error recovery.',
      },
    },
    ['2 (tactical)', 'phase-2-tactical', '2 files changed', 'src/a.ts', 'Deferred error recovery.'],
  ],
  [
    'prd_review',
    { context: { document: 'docs/prd.md', summary: 'Checkout v2' } },
    ['PRD review', 'docs/prd.md', 'Checkout v2'],
  ],
  ['design_review', { context: { path: 'docs/design.md' } }, ['Design review', 'docs/design.md']],
  ['code_review', { context: { description: 'Retry webhooks', files_changed: 7 } }, ['Retry webhooks', '7']],
  ['test_review', { title: 'Tests for the scheduler' }, ['Test review: Tests for the scheduler']],
  [
    'deployment_approval',
    { context: { service: 'api', version: 'v1.4.2', environment: 'production' } },
    ['Deploy api v1.4.2 to production'],
  ],
  [
    'budget_review',
    {
      title: 'Spend more on GPUs',
      context: { monthly_limit: 500, requested: { amount: 800, currency: 'EUR' } },
    },
    ['Spend more on GPUs', 'Monthly limit: 500', 'amount: 800; currency: EUR'],
  ],
];

const TYPES = RICH.map(([type]) => type);

describe('buildBriefing', () => {
  it.each(RICH)('summarises a %s gate', (type, overrides, expected) => {
    const b = buildBriefing(makeGate(type, overrides));
    const text = briefingText(b);
    expect(b.gateType).toBe(type);
    expect(b.summary.trim()).not.toBe('');
    expect(b.summary).not.toMatch(/\n/);
    expect(b.sections.length).toBeGreaterThan(0);
    expect(b.details).toContain(`${b.sections[0]!.title}:`);
    expect(text).not.toMatch(BAD_WORDS);
    for (const fragment of expected) expect(text).toContain(fragment);
  });

  it.each(TYPES)('copes with a %s gate whose context is empty', (type) => {
    const b = buildBriefing(makeGate(type, { agentId: null }));
    expect(b.summary.trim()).not.toBe('');
    expect(briefingText(b)).not.toMatch(BAD_WORDS);
    expect(b.options.map((o) => o.id)).toEqual(['approve', 'reject', 'steer']);
  });

  const junk = {
    task: { nested: { deeper: { deepest: 1 } } },
    epic: [],
    stories: 'many',
    tasks: { a: 1 },
    score: 'high',
    confidence: Number.NaN,
    files: [null, undefined, {}],
    recovery_history: 'not a list',
    coverage: Number.POSITIVE_INFINITY,
    phase_number: '3',
    threshold: null,
    reasons: [{}, [], ''],
    action_type: 42,
  };

  it.each(TYPES)('never crashes or prints "undefined" on odd values in a %s gate', (type) => {
    const b = buildBriefing(makeGate(type, { context: junk, title: '' }));
    expect(b.summary.trim()).not.toBe('');
    expect(briefingText(b)).not.toMatch(BAD_WORDS);
  });

  it('survives a gate whose context, artifacts and options are missing', () => {
    const gate = { ...makeGate('tool_call'), context: null, artifacts: undefined, options: undefined };
    const b = buildBriefing(gate as unknown as Gate);
    expect(b.options).toEqual([]);
    expect(b.artifacts).toEqual([]);
  });

  it('falls back to the generic briefing for types named like Object members', () => {
    for (const type of ['constructor', 'toString', '__proto__']) {
      const b = buildBriefing(makeGate(type, { context: { a: 1 } }));
      expect(b.sections[0]?.fields).toEqual([{ label: 'A', value: '1' }]);
    }
  });

  it('leaves unsafe keys out of a generic briefing', () => {
    const context = JSON.parse('{"__proto__":{"x":1},"constructor":"c","plain":"p"}');
    const b = buildBriefing(makeGate('custom_gate', { context }));
    expect(b.sections[0]?.fields).toEqual([{ label: 'Plain', value: 'p' }]);
  });

  it('lists at most 20 fields of a generic context and says how many more there are', () => {
    const context = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`field_${i}`, i]));
    const b = buildBriefing(makeGate('custom_gate', { context }));
    expect(b.sections[0]?.fields).toHaveLength(20);
    expect(b.sections[0]?.lines).toEqual(['… and 5 more fields']);
  });

  it('shows escape sequences and invisible characters from agents as markers, and warns of them first', () => {
    const b = buildBriefing(
      makeGate('tool_call', {
        agentId: 'coder\u202e1',
        title: 't\x1b[2Jitle',
        action: { tool: 'Ba\u200bsh', args: { command: 'echo \x1b]8;;http://x\x07hi\x1b]8;;\x07' } },
        context: { reason: 'line\nbreak\tand\rreturn' },
        artifacts: ['a\x00b.md'],
        options: [
          {
            id: 'approve',
            label: 'Ap\x1b[31mprove',
            key: 'a',
            description: 'go\u2066',
            ends: true,
            requires: [],
          },
        ],
      }),
    );
    const text = briefingText(b);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b\u202e\u2066]/);
    expect(b.hiddenCharacters).toBe(true);
    expect(b.sections[0]).toEqual({
      title: 'Hidden Characters',
      fields: [],
      lines: [HIDDEN_CHARACTERS_WARNING],
    });
    expect(b.summary).toBe(
      'coder⟨U+202E⟩1 wants to run Ba⟨U+200B⟩sh: echo ⟨U+001B⟩]8;;http://x⟨U+0007⟩hi⟨U+001B⟩]8;;⟨U+0007⟩',
    );
    expect(b.proposedAction?.tool).toBe('Ba⟨U+200B⟩sh');
    expect(text).toContain('line break and⟨U+000D⟩return');
    // Option labels come from the gate catalog, not from agents: they stay machine-safe.
    expect(b.options[0]).toEqual({
      id: 'approve',
      label: 'Approve',
      key: 'a',
      description: 'go',
      ends: true,
    });
    expect(b.artifacts).toEqual(['a⟨U+0000⟩b.md']);
  });

  it('has no warning when nothing was hidden', () => {
    const b = buildBriefing(
      makeGate('tool_call', { action: { tool: 'Bash', args: { command: 'ls\n-la' } } }),
    );
    expect(b.hiddenCharacters).toBe(false);
    expect(b.sections.map((section) => section.title)).not.toContain('Hidden Characters');
  });

  it('summarises the proposed action with the key arguments first', () => {
    const b = buildBriefing(
      makeGate('tool_call', { action: { tool: 'Write', args: { content: 'x'.repeat(500), path: 'a.ts' } } }),
    );
    expect(b.proposedAction?.tool).toBe('Write');
    expect(b.proposedAction?.argsSummary).toMatch(/^path=a\.ts, content=x+…$/);
    expect(b.summary).toBe('agent_1 wants to run Write: a.ts');
  });

  it('reads the proposed action from context args when the gate carries no action', () => {
    const b = buildBriefing(
      makeGate('operation', { context: { operation: 'drop_table', args: { sql: 'DROP TABLE t' } } }),
    );
    expect(b.proposedAction).toEqual({
      tool: null,
      operation: 'drop_table',
      argsSummary: 'sql=DROP TABLE t',
    });
    expect(b.summary).toBe('agent_1 wants to perform drop_table: DROP TABLE t');
  });

  it('cuts very long values and says so', () => {
    const b = buildBriefing(makeGate('constraint_exception', { context: { task: 'y'.repeat(20_000) } }));
    const task = b.sections[0]?.fields.find((f) => f.label === 'Task')?.value ?? '';
    expect(task.length).toBe(10_001);
    expect(task.endsWith('…')).toBe(true);
  });

  it('builds constraint info from the constraint and the required change', () => {
    const b = buildBriefing(
      makeGate('constraint_exception', { context: { constraint: 'time', change: 'more time' } }),
    );
    expect(b.constraintInfo).toBe('Constraint: time; Required change: more time');
    expect(buildBriefing(makeGate('constraint_exception')).constraintInfo).toBeNull();
  });

  it('prefers the agent name from context over the agent id', () => {
    expect(buildBriefing(makeGate('code_review', { context: { agent: 'Reviewer Bot' } })).agent).toBe(
      'Reviewer Bot',
    );
    expect(buildBriefing(makeGate('code_review')).agent).toBe('agent_1');
  });

  it('names the agent by its registered name, whatever the agent calls itself, and never by its id', () => {
    const gate = makeGate('tool_call', {
      context: { agent: 'Trusted Admin Bot' },
      action: { tool: 'Bash', args: { command: 'rm -rf build' } },
    });
    const b = buildBriefing(gate, { agent: 'coder-1' });
    expect(b.agent).toBe('coder-1');
    expect(b.summary).toContain('coder-1');
    expect(`${b.summary}\n${b.details}`).not.toMatch(/agent_1|Trusted Admin Bot/);
    expect(buildBriefing(makeGate('code_review'), { agent: null }).agent).toBe('agent_1');
  });
});
