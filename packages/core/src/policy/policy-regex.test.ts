import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { evaluatePolicy } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import { compileLinearPattern } from './policy-regex.js';
import { recordConditionOutcomes } from './policy-replay.js';
import type { PolicyRequest } from './policy-schema.js';

const policyWith = (condition: string) =>
  compilePolicy({
    name: 'regex',
    rules: [
      { id: 'plain', priority: 10, action: 'allow', reason: 'fine' },
      { id: 'pattern', priority: 20, action: 'deny', reason: 'matched', condition },
    ],
  });

const request = (x: unknown): PolicyRequest => ({
  event: 'tool_call',
  tool: 'shell',
  args: { x },
  agent: { id: 'agent-1' },
});

function refusal(condition: string): GatehouseError {
  try {
    policyWith(condition);
  } catch (error) {
    if (error instanceof GatehouseError) return error;
    throw error;
  }
  throw new Error('expected the policy to be refused');
}

/** The rule that decided and how long evaluating took, in milliseconds. */
function timed(condition: string, x: unknown) {
  const compiled = policyWith(condition);
  const started = performance.now();
  const decision = evaluatePolicy(compiled, request(x));
  return { ruleId: decision.ruleId, ms: performance.now() - started };
}

const STALLING = '^(a|aa)+$';
const FORMS = [
  ['member call', (pattern: string) => `args.x.matches("${pattern}")`],
  ['function', (pattern: string) => `matches(args.x, "${pattern}")`],
] as const;

describe.each(FORMS)('matches() in a policy condition, %s form', (_form, condition) => {
  it.each([
    ['42 a and a !', `${'a'.repeat(42)}!`, 'plain'],
    ['10 000 a and a !', `${'a'.repeat(10_000)}!`, 'plain'],
    ['10 000 a', 'a'.repeat(10_000), 'pattern'],
  ])('evaluates ^(a|aa)+$ against %s in well under 100 ms', (_name, x, ruleId) => {
    const result = timed(condition(STALLING), x);
    expect(result.ruleId).toBe(ruleId);
    expect(result.ms).toBeLessThan(100);
  });

  it.each([
    ['^[a-z]+$', 'deploy', true],
    ['^[a-z]+$', 'Deploy', false],
    ['\\\\d{3}', 'build 123', true],
    ['^prod-', 'staging-1', false],
    ['(?i)^drop table', 'DROP TABLE users', true],
    ['(?P<env>prod|staging)', 'to staging', true],
    ['^(a+)+$', 'aaaa', true],
    ['', 'anything', true],
  ])('finds %s in %j: %s', (pattern, x, found) => {
    expect(timed(condition(pattern), x).ruleId).toBe(found ? 'pattern' : 'plain');
  });

  it('gates, naming the reason, when an argument is not a string', () => {
    const decision = evaluatePolicy(policyWith(condition('^a')), request(5));
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'pattern' });
    expect(decision.errors[0]?.message).toMatch(/matches/);
  });

  it('runs the linear engine when a dry run records the outcomes', () => {
    const started = performance.now();
    const outcomes = recordConditionOutcomes(policyWith(condition(STALLING)), request(`${'a'.repeat(42)}!`));
    expect(performance.now() - started).toBeLessThan(100);
    expect(outcomes).toEqual([[1, { ok: true, value: false }]]);
  });
});

describe('patterns the linear engine cannot run', () => {
  it.each([
    ['a backreference', '(a)\\\\1', 'backreference'],
    ['a named backreference', '(?<x>a)\\\\k<x>', 'backreference'],
    ['a lookahead', 'a(?=b)', 'lookaround'],
    ['a negative lookahead', 'a(?!b)', 'lookaround'],
    ['a lookbehind', '(?<=a)b', 'lookaround'],
    ['a negative lookbehind', '(?<!a)b', 'lookaround'],
  ])('refuses %s at load, naming the rule and the reason', (_name, pattern, reason) => {
    for (const [, form] of FORMS) {
      const error = refusal(form(pattern));
      expect(error.code).toBe('POLICY_INVALID');
      expect(error.status).toBe(400);
      expect(error.message).toContain('rule "pattern" (rules[1].condition)');
      expect(error.message).toContain(reason);
      expect(error.details.issues).toEqual([
        expect.objectContaining({ ruleId: 'pattern', path: 'rules[1].condition' }),
      ]);
    }
  });

  it("refuses a pattern that does not parse, with the engine's reason", () => {
    const error = refusal('args.x.matches("[a-z")');
    expect(error.code).toBe('POLICY_INVALID');
    expect(error.message).toContain('missing closing ]');
  });

  it('refuses matches() on something that is not a string', () => {
    expect(refusal('(1).matches("a")').message).toContain('no matching overload');
    expect(refusal('matches(1, "a")').message).toContain('no matching overload');
  });
});

describe('compileLinearPattern', () => {
  it('says why a pattern cannot run in linear time', () => {
    expect(compileLinearPattern('(a)\\1')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('\\1'),
    });
    expect(compileLinearPattern('(?=a)')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('(?='),
    });
  });

  it('finds a quoted literal exactly where the string contains it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 40 }), (literal, text) => {
        const compiled = compileLinearPattern(literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&'));
        expect(compiled.ok && compiled.regex.test(text)).toBe(text.includes(literal));
      }),
    );
  });
});
