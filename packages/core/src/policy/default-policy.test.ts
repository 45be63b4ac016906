import { describe, expect, it } from 'vitest';
import { ALWAYS_GATED_CATEGORIES, type AlwaysGatedCategory } from '../destructive/destructive.js';
import { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from './default-policy.js';
import { evaluatePolicy, evaluatePolicyNaive } from './policy-engine.js';
import { compilePolicy, loadPolicy } from './policy-load.js';
import type { PolicyInput, PolicyRequest } from './policy-schema.js';

const compiled = compilePolicy(DEFAULT_POLICY);
const agent = { id: 'agent-1' };

function toolCall(
  tool: string,
  args: Record<string, unknown> = {},
  extra: Partial<PolicyRequest> = {},
): PolicyRequest {
  return { event: 'tool_call', tool, args, agent, ...extra };
}

describe('DEFAULT_POLICY', () => {
  it('is the parsed form of DEFAULT_POLICY_YAML and compiles', () => {
    expect(loadPolicy(DEFAULT_POLICY_YAML).policy).toEqual(DEFAULT_POLICY);
    expect(DEFAULT_POLICY.defaultAction).toBe('gate');
  });

  it.each([
    ['file deletion', toolCall('delete_file', { path: 'tmp/old.log' }), 'gate'],
    ['shell command execution', toolCall('shell_execute', { command: 'npm test' }), 'gate'],
    ['shell command execution (bash)', toolCall('bash', { command: 'make build' }), 'gate'],
    ['read-only shell command (bash)', toolCall('bash', { command: 'ls -la' }), 'allow'],
    ['external API call', toolCall('http_request', { url: 'https://api.example.com' }), 'allow'],
    ['file read', toolCall('read_file', { path: 'src/app.ts' }), 'allow'],
    ['agent spawning', toolCall('spawn_agent', { profile: 'tester' }), 'allow'],
  ])('core seed: %s → %s', (_name, request, expected) => {
    expect(evaluatePolicy(compiled, request).action).toBe(expected);
  });

  it.each([
    ['read_file', 'allow'],
    ['search_files', 'allow'],
    ['list_directory', 'allow'],
    ['glob_find', 'allow'],
    ['ripgrep_search', 'allow'],
    ['analyze_code', 'allow'],
    ['ask_user', 'allow'],
    ['web_search', 'allow'],
    ['web_fetch', 'allow'],
    ['task_tracker', 'allow'],
    ['write_file', 'gate'],
    ['edit_file', 'gate'],
    ['delete_file', 'gate'],
    ['move_file', 'gate'],
    ['shell_execute', 'gate'],
    ['git_command', 'gate'],
  ])('cowork: %s → %s', (tool, expected) => {
    const decision = evaluatePolicy(
      compiled,
      toolCall(tool, { path: 'src/app.ts', command: 'git commit -m wip' }),
    );
    expect(decision.action).toBe(expected);
    if (expected === 'gate') expect(decision.gate?.type).toBe('tool_call');
  });

  it('gates a tool it does not know', () => {
    const decision = evaluatePolicy(compiled, toolCall('launch_rockets'));
    expect(decision).toMatchObject({ action: 'gate', ruleId: null, gate: { type: 'tool_call' } });
  });

  const alwaysGated: [AlwaysGatedCategory, PolicyRequest][] = [
    ['delete_files', toolCall('delete_file', { path: 'src/old.ts' })],
    ['drop_tables', toolCall('sql', { sql: 'DROP TABLE accounts' })],
    ['production_config', toolCall('edit_file', { path: 'config/production.yaml' })],
    ['system_packages', toolCall('shell_execute', { command: 'sudo apt-get install nginx' })],
    ['destructive_shell', toolCall('shell_execute', { command: 'git reset --hard HEAD~3' })],
    ['secret_files', toolCall('write_file', { path: '.env' })],
  ];

  it('covers every always-gated category of the confidence seed', () => {
    expect(alwaysGated.map(([category]) => category)).toEqual([...ALWAYS_GATED_CATEGORIES]);
  });

  it.each(alwaysGated)('always-gated: %s gates at high risk, even at confidence 1.0', (category, request) => {
    const decision = evaluatePolicy(compiled, { ...request, confidence: 1 });
    expect(decision.action).toBe('gate');
    expect(decision.gate?.risk).toBe('high');
    expect(decision.ruleId).toBe(`always-gate-${category.replaceAll('_', '-')}`);
    expect(evaluatePolicyNaive(compiled, { ...request, confidence: 1 }).ruleId).toBe(decision.ruleId);
  });

  it.each(alwaysGated)(
    'always-gated: %s gates even when a top-priority rule allows it',
    (category, request) => {
      const allowAll: PolicyInput = {
        ...DEFAULT_POLICY,
        rules: [
          ...DEFAULT_POLICY.rules,
          { id: 'allow-all', priority: 1000, action: 'allow', reason: 'trust' },
        ],
      };
      const decision = evaluatePolicy(compilePolicy(allowAll), { ...request, confidence: 1 });
      expect(decision).toMatchObject({ action: 'gate', ruleId: 'allow-all', gate: { risk: 'high' } });
      expect(decision.alwaysGated).toContain(category);
      expect(decision.reason).toContain('allow-all');
      expect(decision.reason).toContain(category);
    },
  );

  it.each([
    ['hitl-gate-intent-approval', 960, 'planning_complete', 'intent_approval', 'mandatory'],
    ['confidence-threshold', 850, 'task_completion', 'confidence_threshold', 'conditional'],
    ['hitl-gate-constraint-exception', 800, 'constraint_violation', 'constraint_exception', 'advisory'],
  ])('guideline %s has priority %i and gates %s as %s (%s)', (id, priority, event, type, threshold) => {
    expect(DEFAULT_POLICY.rules.find((r) => r.id === id)?.priority).toBe(priority);
    const decision = evaluatePolicy(compiled, { event, args: {}, agent, confidence: 0.5 });
    expect(decision).toMatchObject({ action: 'gate', ruleId: id, gate: { type, threshold } });
  });

  it.each([
    ['planning_complete', 'hitl-gate-intent-approval'],
    ['task_completion', 'allow-at-900'],
    ['constraint_violation', 'allow-at-900'],
  ])('a rule at priority 900 beats the guidelines below it only: %s → %s', (event, winner) => {
    const policy: PolicyInput = {
      ...DEFAULT_POLICY,
      rules: [
        ...DEFAULT_POLICY.rules,
        { id: 'allow-at-900', priority: 900, match: { events: [event] }, action: 'allow', reason: 'trusted' },
      ],
    };
    expect(evaluatePolicy(compilePolicy(policy), { event, args: {}, agent }).ruleId).toBe(winner);
  });

  it.each([
    ['recovery', 'recovery_escalation'],
    ['destructive_action', 'destructive_action'],
    ['false_positive', 'false_positive_override'],
    ['phase_boundary', 'phase_review'],
  ])('escalation event %s opens a %s gate', (event, type) => {
    expect(evaluatePolicy(compiled, { event, args: {}, agent })).toMatchObject({
      action: 'gate',
      gate: { type },
    });
  });
});

describe('DEFAULT_POLICY on hidden characters', () => {
  it.each([
    ['a right-to-left override in the tool name', toolCall('invoice_\u202efdp.sh')],
    ['an override in a command', toolCall('shell_execute', { command: 'echo safe\u202e && rm -rf ~' })],
    [
      'tag characters in an argument an allow rule would pass',
      toolCall('read_file', { path: 'a\u{e0041}.md' }),
    ],
    ['a zero-width space in a nested key', toolCall('web_fetch', { headers: { ['X-\u200bKey']: 'v' } })],
    ['a hidden operation', { event: 'operation', operation: 'deploy\u2066 prod', args: {}, agent }],
  ])('gates %s at high risk', (_name, request: PolicyRequest) => {
    const decision = evaluatePolicy(compiled, request);
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'hidden-characters', gate: { risk: 'high' } });
    expect(evaluatePolicyNaive(compiled, request).ruleId).toBe('hidden-characters');
  });

  it('keeps the gate type of the event it raises', () => {
    const request: PolicyRequest = { event: 'recovery', args: { note: 'x\u200by' }, agent };
    expect(evaluatePolicy(compiled, request).gate).toEqual({ type: 'recovery_escalation', risk: 'high' });
  });

  it('lets plain requests through as before, line breaks and tabs included', () => {
    const decision = evaluatePolicy(compiled, toolCall('read_file', { path: 'src/app.ts', note: 'a\n\tb' }));
    expect(decision.action).toBe('allow');
  });
});

describe('the seeds’ defaults', () => {
  // Seed 000: gate_threshold="conditional",  # Only triggers when score < threshold ... {"default_threshold": 90}
  it.each([
    [0.99, 'allow'],
    [0.9, 'allow'],
    [0.89, 'gate'],
    [0.2, 'gate'],
  ])(
    'the confidence guideline gates a task completion only below 90 of 100 (confidence %d → %s)',
    (confidence, action) => {
      const decision = evaluatePolicy(compiled, { event: 'task_completion', args: {}, agent, confidence });
      expect(decision.action).toBe(action);
    },
  );

  it('gates a task completion that reports no confidence, since it cannot tell', () => {
    expect(evaluatePolicy(compiled, { event: 'task_completion', args: {}, agent }).ruleId).toBe(
      'confidence-threshold',
    );
  });

  // Seed 002: "External API calls: No approval required", "Agent spawning: No approval required",
  // "File reads: No approval required".
  it.each([
    'call the weather API for Oslo',
    'query the GitHub API for open issues',
    'spawn a research agent',
    'start a sub-agent to review the pull request',
    'read the files in src/components',
  ])('lets the free-text operation "%s" through', (operation) => {
    const decision = evaluatePolicy(compiled, { event: 'operation', operation, args: {}, agent });
    expect(decision).toMatchObject({ action: 'allow', ruleId: 'core-free-text-no-approval' });
  });

  it.each([
    'call the billing API to delete every customer',
    'use the payments API to refund all orders',
    'spawn an agent and run rm -rf /',
    'read the .env file',
    'deploy to production',
  ])('keeps "%s" waiting for a person', (operation) => {
    expect(evaluatePolicy(compiled, { event: 'operation', operation, args: {}, agent }).action).toBe('gate');
  });

  // Seed 003: "Some operations always require approval regardless of confidence".
  it('holds a file deletion under a policy of one allow-everything rule, naming the category', () => {
    const allowEverything: PolicyInput = {
      name: 'trusting',
      rules: [{ id: 'allow-everything', priority: 1, action: 'allow', reason: 'trust' }],
    };
    const decision = evaluatePolicy(
      compilePolicy(allowEverything),
      toolCall('fs_delete', { path: 'src/a.ts' }),
    );
    expect(decision).toMatchObject({ action: 'gate', gate: { risk: 'high' } });
    expect(decision.alwaysGated).toContain('delete_files');
  });
});
