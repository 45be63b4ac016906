import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { evaluatePolicy } from './policy-engine.js';
import { compilePolicy, createFailClosedPolicy, loadPolicy, parsePolicyText } from './policy-load.js';
import type { PolicyIssue } from './policy-schema.js';

const agent = { id: 'agent-1' };
const rule = (extra: Record<string, unknown>) => ({
  id: 'r',
  priority: 100,
  action: 'allow',
  reason: 'ok',
  ...extra,
});

function issuesOf(run: () => unknown): { error: GatehouseError; issues: PolicyIssue[] } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    return { error, issues: error.details.issues as PolicyIssue[] };
  }
  throw new Error('expected POLICY_INVALID');
}

describe('loadPolicy', () => {
  const yaml = `
name: team
version: 3
rules:
  - id: reads
    priority: 100
    match: { tools: [read_file] }
    action: allow
    reason: reads are safe
  - id: big-writes
    priority: 200
    match: { tools: [write_file] }
    condition: size(impact.files) > 10
    action: gate
    reason: many files at once
`;

  it('reads YAML and compiles every condition once', () => {
    const compiled = loadPolicy(yaml);
    expect(compiled.name).toBe('team');
    expect(compiled.policy.version).toBe('3');
    expect(compiled.rules.map((r) => r.id)).toEqual(['reads', 'big-writes']);
    expect(compiled.rules[1]?.condition).toBeTypeOf('function');
    expect(compiled.policy.rules[1]?.action).toEqual({ gate: {} });
  });

  it('reads JSON, detected from the opening brace or named explicitly', () => {
    const json = JSON.stringify({ name: 'j', rules: [rule({ id: 'all' })] });
    expect(loadPolicy(json).rules[0]?.id).toBe('all');
    expect(loadPolicy(` ${json}`, 'json').name).toBe('j');
    expect(loadPolicy(json, 'yaml').name).toBe('j');
  });

  it.each([
    ['YAML', 'name: x\nrules: [\n', 'yaml', /not valid YAML/],
    ['JSON', '{"name": "x",', 'json', /not valid JSON/],
  ])('rejects text that is not valid %s', (_kind, text, format, message) => {
    const { error, issues } = issuesOf(() => loadPolicy(text, format as 'yaml' | 'json'));
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.message).toMatch(message);
    expect(issues[0]).toMatchObject({ ruleId: null, ruleIndex: null, path: '' });
  });

  it('rejects an empty text', () => {
    expect(() => loadPolicy('')).toThrow(/a policy is an object with a name and rules \(got null\)/);
  });

  it('accepts a policy without rules, which gates everything', () => {
    const compiled = loadPolicy('name: empty');
    expect(
      evaluatePolicy(compiled, { event: 'tool_call', tool: 'read_file', args: {}, agent }),
    ).toMatchObject({
      action: 'gate',
      ruleId: null,
      reason: 'policy "empty" has no enabled rules; every request needs approval',
    });
  });

  it('parses without compiling', () => {
    expect(parsePolicyText('name: p')).toEqual({ name: 'p' });
  });
});

describe('compilePolicy rejects invalid policies, naming the rule', () => {
  it.each([
    [
      'bad CEL syntax',
      rule({ id: 'shell-guard', condition: 'tool ==' }),
      'shell-guard',
      'rules[0].condition',
      /CEL syntax error: .*column 8/,
    ],
    [
      'an unknown variable',
      rule({ id: 'who', condition: 'user.name == "x"' }),
      'who',
      'rules[0].condition',
      /Unknown variable: user.*conditions can read request, tool, args/,
    ],
    [
      'an unknown function',
      rule({ id: 'fn', condition: 'isSafe(tool)' }),
      'fn',
      'rules[0].condition',
      /CEL compile error: found no matching overload for 'isSafe/,
    ],
    [
      'a condition that is not a bool',
      rule({ id: 'num', condition: '1 + 2' }),
      'num',
      'rules[0].condition',
      /must be a bool expression \(it gives int\)/,
    ],
    [
      'an unknown risk level in riskAtLeast',
      rule({ id: 'risky', condition: 'riskAtLeast("severe")' }),
      'risky',
      'rules[0].condition',
      /unknown risk level "severe"/,
    ],
    [
      'an unknown action',
      rule({ id: 'blocker', action: 'block' }),
      'blocker',
      'rules[0].action',
      /action must be "allow", "deny", "gate" or \{ gate: \{ … \} \} \(got "block"\)/,
    ],
    [
      'a priority above 1000',
      rule({ id: 'urgent', priority: 1200 }),
      'urgent',
      'rules[0].priority',
      /priority must be an integer between 0 and 1000 \(got 1200\)/,
    ],
    ['a negative priority', rule({ id: 'low', priority: -1 }), 'low', 'rules[0].priority', /\(got -1\)/],
    [
      'a fractional priority',
      rule({ id: 'half', priority: 1.5 }),
      'half',
      'rules[0].priority',
      /\(got 1.5\)/,
    ],
    [
      'a priority that is not a number',
      rule({ id: 'text', priority: 'high' }),
      'text',
      'rules[0].priority',
      /\(got "high"\)/,
    ],
    [
      'an id that is not a slug',
      rule({ id: 'Not A Slug' }),
      'Not A Slug',
      'rules[0].id',
      /rule ids are slugs/,
    ],
    [
      'an unknown gate risk',
      rule({ id: 'g', action: { gate: { risk: 'huge' } } }),
      'g',
      'rules[0].action.gate.risk',
      /expected one of "low"\|"medium"\|"high"\|"critical"/,
    ],
    ['a misspelt key', rule({ id: 'typo', prority: 5 }), 'typo', 'rules[0]', /Unrecognized key: "prority"/],
    [
      'an empty match list',
      rule({ id: 'm', match: { tools: [] } }),
      'm',
      'rules[0].match.tools',
      /match.tools must not be empty/,
    ],
    [
      'a missing reason',
      { id: 'why', priority: 1, action: 'deny' },
      'why',
      'rules[0].reason',
      /expected string/,
    ],
    [
      'a mandatory gate that proceeds on timeout',
      rule({ id: 'mp', action: { gate: { threshold: 'mandatory', timeoutAction: 'proceed' } } }),
      'mp',
      'rules[0].action.gate.timeoutAction',
      /not allowed on a mandatory gate/,
    ],
    [
      'a timeout beyond 30 days',
      rule({ id: 'slow', action: { gate: { timeoutSeconds: 99_999_999 } } }),
      'slow',
      'rules[0].action.gate.timeoutSeconds',
      /between 1s and 30d/,
    ],
  ])('rejects %s', (_name, badRule, ruleId, path, message) => {
    const { error, issues } = issuesOf(() => compilePolicy({ name: 'p', rules: [badRule] }));
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.status).toBe(400);
    expect(error.message).toContain(`policy "p" is invalid: rule "${ruleId}" (${path})`);
    expect(error.message).toMatch(message);
    expect(issues[0]).toMatchObject({ ruleId, ruleIndex: 0, path });
  });

  it('rejects duplicate ids, naming both positions', () => {
    const { error, issues } = issuesOf(() =>
      compilePolicy({
        name: 'p',
        rules: [rule({ id: 'twice' }), rule({ id: 'other' }), rule({ id: 'twice' })],
      }),
    );
    expect(error.message).toBe(
      'policy "p" is invalid: rule "twice" (rules[2].id): duplicate rule id "twice" (first used by rules[0])',
    );
    expect(issues).toHaveLength(1);
  });

  it('names a rule without a usable id by its index', () => {
    const { error, issues } = issuesOf(() =>
      compilePolicy({ name: 'p', rules: [rule({}), { priority: 1 }] }),
    );
    expect(error.message).toMatch(/^policy "p" is invalid: rule at index 1 \(rules\[1\]\.id\)/);
    expect(issues.every((i) => i.ruleIndex === 1 && i.ruleId === null)).toBe(true);
  });

  it('reports every fault at once, in rule order, for an editor to show at each rule', () => {
    const { error, issues } = issuesOf(() =>
      compilePolicy({
        name: 'p',
        rules: [rule({ id: 'a', condition: 'nope(' }), rule({ id: 'b', priority: 5000, condition: 'foo' })],
      }),
    );
    expect(error.message).toMatch(/\(and 2 more problems\)$/);
    expect(issues.map((i) => [i.ruleId, i.path])).toEqual([
      ['a', 'rules[0].condition'],
      ['b', 'rules[1].priority'],
      ['b', 'rules[1].condition'],
    ]);
  });

  it('rejects document-level faults without a rule', () => {
    expect(() => compilePolicy({ rules: [] })).toThrow(/policy is invalid: name: /);
    expect(() => compilePolicy({ name: 'p', defaultAction: 'allow' })).toThrow(
      /defaultAction must be "gate" or "deny" \(got "allow"\); a policy never allows by default/,
    );
    expect(() => compilePolicy({ name: 'p', rules: ['x'] })).toThrow(/each rule is an object/);
  });

  it('checks gate types against the known ones when given', () => {
    const policy = { name: 'p', rules: [rule({ id: 'g', action: { gate: { type: 'made_up' } } })] };
    expect(() => compilePolicy(policy)).not.toThrow();
    expect(() => compilePolicy(policy, { gateTypes: ['tool_call', 'operation'] })).toThrow(
      'policy "p" is invalid: rule "g" (rules[0].action.gate.type): unknown gate type "made_up"; known: tool_call, operation',
    );
  });
});

describe('createFailClosedPolicy', () => {
  it('gates every request and says why', () => {
    const compiled = createFailClosedPolicy('rules[2].condition does not compile', 'team');
    const decision = evaluatePolicy(compiled, { event: 'tool_call', tool: 'read_file', args: {}, agent });
    expect(decision).toMatchObject({ action: 'gate', ruleId: null, gate: { type: 'tool_call' } });
    expect(decision.reason).toBe(
      'policy "team" failed to load (rules[2].condition does not compile); every request needs approval',
    );
  });
});
