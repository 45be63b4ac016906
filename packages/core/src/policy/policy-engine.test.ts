import { describe, expect, it } from 'vitest';
import { evaluatePolicy, evaluatePolicyNaive } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import type { PolicyRequest } from './policy-schema.js';

const agent = { id: 'agent-1', profile: 'coder' };
const base: PolicyRequest = {
  event: 'tool_call',
  tool: 'shell_execute',
  args: { command: 'npm test' },
  agent,
};
const both = [evaluatePolicy, evaluatePolicyNaive] as const;

type RuleSpec = { id: string; priority: number; action: unknown; condition?: string; match?: unknown };
const policy = (rules: RuleSpec[], extra: Record<string, unknown> = {}) =>
  compilePolicy({ name: 'test', ...extra, rules: rules.map((r) => ({ reason: `because ${r.id}`, ...r })) });

describe.each(both)('%o', (evaluate) => {
  it('lets the highest priority win', () => {
    const compiled = policy([
      { id: 'deny-low', priority: 10, action: 'deny' },
      { id: 'allow-high', priority: 20, action: 'allow' },
    ]);
    expect(evaluate(compiled, base)).toMatchObject({
      action: 'allow',
      ruleId: 'allow-high',
      reason: 'because allow-high',
    });
  });

  it.each([
    ['deny', 'gate', 'deny'],
    ['gate', 'allow', 'gate'],
    ['allow', 'deny', 'deny'],
  ])('at equal priority picks the more restrictive of %s and %s', (a, b, expected) => {
    const compiled = policy([
      { id: 'first', priority: 50, action: a },
      { id: 'second', priority: 50, action: b },
    ]);
    expect(evaluate(compiled, base).action).toBe(expected);
  });

  it('breaks a full tie by document order', () => {
    const compiled = policy([
      { id: 'one', priority: 50, action: 'gate' },
      { id: 'two', priority: 50, action: 'gate' },
    ]);
    expect(evaluate(compiled, base).ruleId).toBe('one');
  });

  it('falls back to the default: gate, or deny when the policy says so', () => {
    const rules = [{ id: 'reads', priority: 1, action: 'allow', match: { tools: ['read_file'] } }];
    expect(evaluate(policy(rules), base)).toMatchObject({
      action: 'gate',
      ruleId: null,
      gate: { type: 'tool_call' },
    });
    const denying = evaluate(policy(rules, { defaultAction: 'deny' }), base);
    expect(denying).toMatchObject({ action: 'deny', ruleId: null });
    expect(denying.reason).toBe('no rule of policy "test" matched; the policy default is to deny');
    expect(denying.gate).toBeUndefined();
  });

  it('ignores disabled rules', () => {
    const compiled = policy([{ id: 'off', priority: 1, action: 'allow', enabled: false } as RuleSpec]);
    expect(evaluate(compiled, base)).toMatchObject({ action: 'gate', ruleId: null, matched: [] });
  });

  it('requires every match key to fit', () => {
    const compiled = policy([
      { id: 'k', priority: 1, action: 'allow', match: { tools: ['shell_execute'], events: ['operation'] } },
      { id: 'g', priority: 1, action: 'allow', match: { gateTypes: ['code_review'] } },
    ]);
    expect(evaluate(compiled, base).ruleId).toBeNull();
    expect(evaluate(compiled, { ...base, event: 'operation' }).ruleId).toBe('k');
    expect(evaluate(compiled, { ...base, tool: undefined, event: 'x' } as PolicyRequest).ruleId).toBeNull();
    expect(evaluate(compiled, { ...base, gateType: 'code_review' }).ruleId).toBe('g');
  });

  it('fails closed when a condition throws, and reports it', () => {
    const compiled = policy([
      { id: 'shaky', priority: 90, action: 'allow', condition: 'args.missing == "x"' },
      { id: 'later', priority: 10, action: 'allow' },
    ]);
    const decision = evaluate(compiled, base);
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'shaky', gate: { type: 'tool_call' } });
    expect(decision.reason).toMatch(
      /^condition of rule "shaky" could not be evaluated \(No such key: missing\)/,
    );
    expect(decision.errors).toEqual([{ ruleId: 'shaky', message: 'No such key: missing' }]);
  });

  it('lets a failing deny rule gate rather than deny, keeping its gate settings when it has them', () => {
    const compiled = policy([
      { id: 'deny-shaky', priority: 5, action: 'deny', condition: 'confidence < 0.5' },
      {
        id: 'gate-shaky',
        priority: 4,
        action: { gate: { risk: 'critical' } },
        condition: 'confidence < 0.5',
      },
    ]);
    expect(evaluate(compiled, base)).toMatchObject({
      action: 'gate',
      ruleId: 'deny-shaky',
      gate: { type: 'tool_call' },
    });
    expect(evaluate(compiled, { ...base, confidence: 0.2 }).action).toBe('deny');
    const only = policy([
      { id: 'g', priority: 4, action: { gate: { risk: 'critical' } }, condition: 'run.autonomy == 1' },
    ]);
    expect(evaluate(only, base).gate).toEqual({ type: 'tool_call', risk: 'critical' });
  });

  it('treats a condition that is not a bool at run time as a failure', () => {
    const compiled = policy([{ id: 'dyn', priority: 5, action: 'allow', condition: 'args.command' }]);
    expect(evaluate(compiled, base)).toMatchObject({
      action: 'gate',
      errors: [{ ruleId: 'dyn', message: 'condition gave string, not a bool' }],
    });
  });

  it('never allows an always-gated action, naming the rule and the category', () => {
    const compiled = policy([{ id: 'trust-shell', priority: 1000, action: 'allow' }]);
    const decision = evaluate(compiled, {
      ...base,
      args: { command: 'psql -c "DROP TABLE users"' },
      risk: 'critical',
    });
    expect(decision).toMatchObject({
      action: 'gate',
      ruleId: 'trust-shell',
      gate: { type: 'tool_call', risk: 'critical' },
      alwaysGated: ['drop_tables', 'destructive_shell'],
    });
    expect(decision.reason).toBe(
      'rule "trust-shell" would allow this, but it is always gated: Dropping database tables (drop_tables), Running destructive shell commands (destructive_shell)',
    );
    const operation = evaluate(compiled, {
      event: 'operation',
      operation: 'rm -rf /tmp/cache',
      args: {},
      agent,
    });
    expect(operation.gate).toEqual({ type: 'operation', risk: 'high' });
  });

  it('still denies an always-gated action a rule denies', () => {
    const compiled = policy([
      { id: 'no-rm', priority: 1, action: 'deny', condition: 'isDestructive(args.command)' },
    ]);
    expect(evaluate(compiled, { ...base, args: { command: 'rm -rf /' } }).action).toBe('deny');
  });

  it.each([
    ['tool_call', undefined, 'tool_call'],
    ['operation', undefined, 'operation'],
    ['task_completion', undefined, 'confidence_threshold'],
    ['planning_complete', undefined, 'intent_approval'],
    ['constraint_violation', undefined, 'constraint_exception'],
    ['recovery', undefined, 'recovery_escalation'],
    ['destructive_action', undefined, 'destructive_action'],
    ['false_positive', undefined, 'false_positive_override'],
    ['phase_boundary', undefined, 'phase_review'],
    ['phase_boundary', 'code_review', 'code_review'],
    ['toString', undefined, 'tool_call'],
  ])(
    'opens a gate for event %s (gateType %s) of type %s when the rule names none',
    (event, gateType, type) => {
      const compiled = policy([{ id: 'g', priority: 1, action: 'gate' }]);
      const request: PolicyRequest = { ...base, event, ...(gateType === undefined ? {} : { gateType }) };
      expect(evaluate(compiled, request).gate).toEqual({ type });
    },
  );
});

describe('conditions', () => {
  const decide = (condition: string, request: Partial<PolicyRequest> = {}) =>
    evaluatePolicy(policy([{ id: 'c', priority: 1, action: 'allow', condition }]), { ...base, ...request })
      .ruleId === 'c';

  it.each([
    ['tool == "shell_execute"', {}, true],
    ['event == "tool_call" && request.event == event', {}, true],
    ['args.command.startsWith("npm")', {}, true],
    ['has(args.path)', {}, false],
    ['isDestructive(args.command)', {}, false],
    ['isDestructive(args.command)', { args: { command: 'rm -rf build' } }, true],
    ['alwaysGated()', {}, false],
    [
      '"destructive_shell" in alwaysGatedCategories()',
      { args: { command: 'git push --force origin main' } },
      true,
    ],
    ['riskAtLeast("high")', { risk: 'high' }, true],
    ['riskAtLeast("high")', { risk: 'medium' }, false],
    ['riskAtLeast("low")', {}, false],
    ['confidence == null', {}, true],
    ['confidence >= 0.8', { confidence: 0.9 }, true],
    ['agent.id == "agent-1" && agent.profile == "coder"', {}, true],
    ['run != null && run.autonomy == "full"', {}, false],
    [
      'run.approvalMode == "manual"',
      { run: { id: 'r1', autonomy: 'partial', approvalMode: 'manual' } },
      true,
    ],
    ['impact != null && size(impact.files) > 2', { impact: { files: ['a', 'b', 'c'] } }, true],
    ['risk == null && tool != null', {}, true],
  ])('%s with %j → %s', (condition, request, expected) => {
    expect(decide(condition, request as Partial<PolicyRequest>)).toBe(expected);
  });

  it('fails closed on an unknown risk level computed at run time', () => {
    const compiled = policy([
      { id: 'r', priority: 1, action: 'allow', condition: 'riskAtLeast(args.level)' },
    ]);
    const decision = evaluatePolicy(compiled, { ...base, args: { level: 'extreme' } });
    expect(decision.action).toBe('gate');
    expect(decision.errors[0]?.message).toMatch(/unknown risk level "extreme"/);
  });

  it('classifies the action at most once per request', () => {
    const compiled = policy([
      { id: 'a', priority: 3, action: 'gate', condition: 'alwaysGated() && false' },
      { id: 'b', priority: 2, action: 'gate', condition: 'size(alwaysGatedCategories()) > 5' },
      { id: 'c', priority: 1, action: 'allow', condition: 'alwaysGated() == false' },
    ]);
    expect(evaluatePolicy(compiled, base)).toMatchObject({
      action: 'allow',
      ruleId: 'c',
      evaluatedConditions: 3,
    });
  });
});

describe('indexed evaluation', () => {
  const compiled = policy([
    { id: 'reads', priority: 100, action: 'allow', match: { tools: ['read_file'] } },
    { id: 'shell', priority: 100, action: 'gate', match: { tools: ['shell_execute'] }, condition: 'true' },
    {
      id: 'shell-safe',
      priority: 50,
      action: 'allow',
      match: { tools: ['shell_execute'] },
      condition: 'true',
    },
    { id: 'done', priority: 60, action: 'gate', match: { events: ['task_completion'] }, condition: 'true' },
    { id: 'any', priority: 10, action: 'gate', condition: 'true' },
  ]);

  it('stops once no remaining rule can beat the winner', () => {
    const indexed = evaluatePolicy(compiled, base);
    const naive = evaluatePolicyNaive(compiled, base);
    expect(indexed).toMatchObject({
      action: 'gate',
      ruleId: 'shell',
      matched: ['shell'],
      evaluatedConditions: 1,
    });
    expect(naive).toMatchObject({ action: 'gate', ruleId: 'shell', matched: ['shell', 'shell-safe', 'any'] });
    expect(naive.evaluatedConditions).toBe(3);
  });

  it('keeps evaluating same-priority rules that could still turn out more restrictive', () => {
    const tied = policy([
      { id: 'ok', priority: 5, action: 'allow' },
      { id: 'maybe', priority: 5, action: 'allow', condition: 'args.nothing' },
      { id: 'weaker', priority: 5, action: 'allow', condition: 'true' },
    ]);
    const decision = evaluatePolicy(tied, base);
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'maybe', matched: ['ok', 'maybe'] });
    expect(decision.evaluatedConditions).toBe(1);
  });
});
