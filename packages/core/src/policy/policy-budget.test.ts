import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../errors.js';
import { DEFAULT_POLICY } from './default-policy.js';
import { POLICY_BUDGET, type PolicyBudgetIssue } from './policy-budget.js';
import { measureRequestSize, REGEX_STEPS_PER_CHAR } from './policy-cost.js';
import { evaluatePolicy } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import { compileLinearPattern } from './policy-regex.js';

const rule = (id: string, condition?: string) => ({
  id,
  priority: 10,
  action: 'deny',
  reason: 'test',
  ...(condition === undefined ? {} : { condition }),
});

const policyWith = (condition: string) => ({
  name: 'budget',
  rules: [rule('plain'), rule('heavy', condition)],
});

function budgetError(input: unknown): GatehouseError {
  try {
    compilePolicy(input);
  } catch (error) {
    if (error instanceof GatehouseError) return error;
    throw error;
  }
  throw new Error('expected the policy to be refused');
}

/** `args.xs.exists(v0, args.xs.exists(v1, … v0 + … > 0))`, `depth` comprehensions deep. */
function nested(macro: string, depth: number): string {
  const vars = Array.from({ length: depth }, (_, i) => `v${i}`);
  const body = macro === 'map' ? vars.join(' + ') : `${vars.join(' + ')} > 0`;
  const inner = vars.reduceRight((acc, v) => `args.xs.${macro}(${v}, ${acc})`, body);
  return macro === 'map' ? `size(${inner}) > 0` : inner;
}

/** Comprehensions and cel.bind nested in the order given, each level a bool. */
function mixed(macros: readonly string[]): string {
  const vars = macros.map((_, i) => `v${i}`);
  return macros.reduceRight(
    (body, macro, i) => {
      const v = vars[i];
      if (macro === 'bind') return `cel.bind(${v}, 1, ${body})`;
      if (macro === 'map' || macro === 'filter') return `size(args.xs.${macro}(${v}, ${body})) >= 0`;
      return `args.xs.${macro}(${v}, ${body})`;
    },
    `${vars.join(' + ')} > 0`,
  );
}

const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;
const map = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(', ')}}`;
const sum = (n: number) => `${Array.from({ length: n }, () => '1').join(' + ')} > 0`;
const parens = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)} > 0`;

describe('policy budget', () => {
  it.each([
    ['maxComprehensionDepth', nested('exists', 4)],
    ['maxComprehensionDepth', nested('map', 5)],
    ['maxComprehensionDepth', nested('all', 3)],
    ['maxComprehensionDepth', 'cel.bind(a, args.s, cel.bind(b, a + a, cel.bind(c, b + b, c == "")))'],
    ['maxComprehensionDepth', 'args.xs.filter(a, args.xs.exists_one(b, args.xs.all(c, a == b)))[0] == 1'],
    ['maxListLiteral', `size(${list(101)}) > 0`],
    ['maxMapLiteral', `size(${map(101)}) > 0`],
    ['maxStringLiteral', `args.s == "${'x'.repeat(1001)}"`],
    ['maxAstNodes', sum(300)],
    ['maxAstDepth', parens(40)],
    ['maxConditionChars', `args.s == "" ${'|| args.s == "" '.repeat(300)}`],
    ['maxRegexProgramSize', `args.s.matches("${'[^x]{1000}'.repeat(6)}")`],
    ['maxRegexProgramSize', `matches(args.s, "${'.{1000}'.repeat(6)}")`],
    ['maxRegexProgramSize', 'args.s.matches(args.pattern)'],
    ['maxRegexProgramSize', 'matches(args.s, args.pattern)'],
  ])('refuses a condition over %s, naming the rule and the limit', (limit, condition) => {
    const error = budgetError(policyWith(condition));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.status).toBe(400);
    expect(error.message).toContain('rule "heavy" at index 1');
    expect(error.message).toContain(`limit ${limit}`);
    const issues = error.details.issues as PolicyBudgetIssue[];
    expect(issues[0]).toMatchObject({ ruleId: 'heavy', ruleIndex: 1, path: 'rules[1].condition', limit });
    expect(error.details.fields).toEqual([
      { field: 'rules[1].condition', message: expect.stringContaining(limit) },
    ]);
  });

  it('accepts conditions at the limits', () => {
    const conditions = [
      nested('exists', 2),
      nested('map', 2),
      `size(${list(100)}) > 0`,
      `size(${map(100)}) > 0`,
      `args.s == "${'x'.repeat(1000)}"`,
      'args.s.matches("^[a-z]+(-[0-9]{1,4})?$")',
      // Nested repetition is harmless to the linear-time engine.
      'args.s.matches("^(a+)+$")',
      'matches(args.s, "(\\\\w+\\\\s?)*")',
      `args.s.matches("${'[^x]{1000}'.repeat(4)}")`,
    ];
    const compiled = compilePolicy({ name: 'ok', rules: conditions.map((c, i) => rule(`r${i}`, c)) });
    expect(compiled.rules).toHaveLength(conditions.length);
  });

  it('accepts a matches() pattern exactly when its compiled program is within the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.constantFrom('[^x]{1000}', 'a{500}', '(ab|cd){900}'),
        (n, piece) => {
          const pattern = piece.repeat(n);
          const compiled = compileLinearPattern(pattern);
          if (!compiled.ok) throw new Error(compiled.reason);
          const condition = `args.s.matches("${pattern}")`;
          if (compiled.programSize <= POLICY_BUDGET.maxRegexProgramSize)
            expect(() => compilePolicy(policyWith(condition))).not.toThrow();
          else
            expect(budgetError(policyWith(condition)).details.issues).toMatchObject([
              { limit: 'maxRegexProgramSize', actual: compiled.programSize },
            ]);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses more rules than the budget before compiling any condition', () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => rule(`r${i}`, nested('exists', 4)));
    const error = budgetError({ name: 'many', rules: rules(POLICY_BUDGET.maxRules + 1) });
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toContain('limit maxRules');
    expect(error.details.issues).toEqual([expect.objectContaining({ path: 'rules', limit: 'maxRules' })]);
    const plain = Array.from({ length: POLICY_BUDGET.maxRules }, (_, i) => rule(`r${i}`));
    expect(compilePolicy({ name: 'many', rules: plain }).rules).toHaveLength(POLICY_BUDGET.maxRules);
  });

  it('keeps the default policy within its budget', () => {
    expect(() => compilePolicy(DEFAULT_POLICY)).not.toThrow();
  });

  it('accepts a nesting of comprehensions exactly when it is within the limit', () => {
    const macro = fc.constantFrom('all', 'exists', 'exists_one', 'map', 'filter', 'bind');
    fc.assert(
      fc.property(fc.array(macro, { minLength: 1, maxLength: 6 }), (macros) => {
        const condition = mixed(macros);
        if (macros.length <= POLICY_BUDGET.maxComprehensionDepth) {
          expect(() => compilePolicy(policyWith(condition))).not.toThrow();
        } else {
          const issues = budgetError(policyWith(condition)).details.issues;
          expect(issues).toMatchObject([{ limit: 'maxComprehensionDepth', actual: macros.length }]);
        }
      }),
    );
  });

  it('accepts a list literal exactly when it is within the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 160 }), (n) => {
        const condition = `size(${list(n)}) >= 0`;
        if (n <= POLICY_BUDGET.maxListLiteral)
          expect(() => compilePolicy(policyWith(condition))).not.toThrow();
        else expect(budgetError(policyWith(condition)).message).toContain('limit maxListLiteral');
      }),
      { numRuns: 60 },
    );
  });
});

describe('evaluation budget per request', () => {
  const request = (xs: unknown[]) => ({
    event: 'tool_call',
    tool: 'shell',
    args: { xs },
    agent: { id: 'agent-1' },
  });
  const quadratic = 'args.xs.exists(a, args.xs.exists(b, a + b < 0))';
  const only = (condition: string) => ({ name: 'only', rules: [rule('heavy', condition)] });

  function referenceSize(value: unknown): { elements: number; largest: number; longestString: number } {
    if (typeof value === 'string') return { elements: 0, largest: 0, longestString: value.length };
    if (typeof value !== 'object' || value === null) return { elements: 0, largest: 0, longestString: 0 };
    const values = Array.isArray(value) ? value : Object.values(value);
    const inner = values.map(referenceSize);
    return {
      elements: values.length + inner.reduce((n, c) => n + c.elements, 0),
      largest: Math.max(values.length, ...inner.map((c) => c.largest)),
      longestString: Math.max(0, ...inner.map((c) => c.longestString)),
    };
  }

  it('counts every list element and map entry of a request, the largest collection and the longest string', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(measureRequestSize(value)).toEqual(referenceSize(value));
      }),
    );
  });

  it('charges a search inside a comprehension for the list it searches', () => {
    const compiled = compilePolicy(only('args.xs.exists(a, a in args.ys)'));
    const search = (n: number) => ({
      event: 'tool_call',
      tool: 'shell',
      args: { xs: Array.from({ length: n }, (_, i) => i), ys: Array.from({ length: n }, (_, i) => -1 - i) },
      agent: { id: 'agent-1' },
    });
    expect(evaluatePolicy(compiled, search(10))).toMatchObject({ action: 'gate', errors: [] });
    const started = performance.now();
    const big = evaluatePolicy(compiled, search(5000));
    expect(performance.now() - started).toBeLessThan(200);
    expect(big.errors).toEqual([{ ruleId: 'heavy', message: expect.stringContaining('evaluation budget') }]);
  });

  it('runs a comprehension over a small request as written', () => {
    const compiled = compilePolicy(only(quadratic));
    const decision = evaluatePolicy(compiled, request([1, -2, 3]));
    expect(decision).toMatchObject({ action: 'deny', ruleId: 'heavy', errors: [] });
  });

  it('gates instead of running a condition whose estimate for the request is over the budget', () => {
    const compiled = compilePolicy(only(quadratic));
    const xs = Array.from({ length: 10_000 }, (_, i) => i);
    const started = performance.now();
    const decision = evaluatePolicy(compiled, request(xs));
    expect(performance.now() - started).toBeLessThan(500);
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'heavy' });
    expect(decision.errors).toEqual([
      { ruleId: 'heavy', message: expect.stringContaining('evaluation budget') },
    ]);
  });

  it('shares one budget between the conditions of a request', () => {
    // 11 nodes × (800 elements + a few entries)² ≈ 7 million steps: each fits alone, not both.
    const rules = ['a', 'b'].map((id, i) => ({
      id,
      priority: 10 - i,
      action: 'deny',
      reason: 'test',
      condition: 'args.xs.exists(a, args.xs.exists(b, a < 0))',
    }));
    const compiled = compilePolicy({ name: 'shared', rules });
    const decision = evaluatePolicy(compiled, request(Array.from({ length: 800 }, (_, i) => i)));
    expect(decision.errors).toEqual([{ ruleId: 'b', message: expect.stringContaining('evaluation budget') }]);
    expect(decision).toMatchObject({ action: 'gate', ruleId: 'b' });
  });

  it('charges a list-joining + inside a comprehension for the lists it copies, and not arithmetic', () => {
    const args = (n: number, big: number) => ({
      event: 'tool_call',
      tool: 'shell',
      args: { xs: Array.from({ length: n }, (_, i) => i), big: Array.from({ length: big }, (_, i) => i) },
      agent: { id: 'agent-1' },
    });
    const copies = compilePolicy(only('size(args.xs.map(a, args.big + args.big)) > 0'));
    expect(evaluatePolicy(copies, args(3, 3))).toMatchObject({ action: 'deny', errors: [] });
    const started = performance.now();
    const big = evaluatePolicy(copies, args(2000, 30_000));
    expect(performance.now() - started).toBeLessThan(200);
    expect(big.errors).toEqual([{ ruleId: 'heavy', message: expect.stringContaining('evaluation budget') }]);
    const arithmetic = compilePolicy(only('args.xs.exists(a, a + 1.0 > 1999.0)'));
    expect(evaluatePolicy(arithmetic, args(2000, 0))).toMatchObject({ action: 'deny', errors: [] });
  });

  it('charges a string split inside a comprehension for the longest string it may split', () => {
    const splits = compilePolicy(only('size(args.xs.map(a, args.s.split(""))) > 0'));
    const args = (n: number, chars: number) => ({
      event: 'tool_call',
      tool: 'shell',
      args: { xs: Array.from({ length: n }, (_, i) => i), s: 'x'.repeat(chars) },
      agent: { id: 'agent-1' },
    });
    expect(evaluatePolicy(splits, args(3, 3))).toMatchObject({ action: 'deny', errors: [] });
    const started = performance.now();
    const big = evaluatePolicy(splits, args(16_000, 32_000));
    expect(performance.now() - started).toBeLessThan(200);
    expect(big.errors).toEqual([{ ruleId: 'heavy', message: expect.stringContaining('evaluation budget') }]);
  });

  it('charges a matches() inside a comprehension for the longest string it scans on every iteration', () => {
    const scans = compilePolicy(only('args.xs.exists(a, args.s.matches("a(c|d)"))'));
    const args = (n: number, chars: number) => ({
      event: 'tool_call',
      tool: 'shell',
      args: { xs: Array.from({ length: n }, (_, i) => i), s: 'ab'.repeat(chars / 2) },
      agent: { id: 'agent-1' },
    });
    expect(evaluatePolicy(scans, args(3, 4))).toMatchObject({ action: 'gate', errors: [] });
    // Within the 64 KiB of a gate's args: 5 000 scans of a 34 000-character string.
    const started = performance.now();
    const big = evaluatePolicy(scans, args(5000, 34_000));
    expect(performance.now() - started).toBeLessThan(200);
    expect(big.errors).toEqual([{ ruleId: 'heavy', message: expect.stringContaining('evaluation budget') }]);
  });

  it('charges every matches() for the string it scans, so scans of a long string share the budget', () => {
    const rules = Array.from({ length: 40 }, (_, i) => ({
      id: `r${i}`,
      priority: 40 - i,
      action: 'deny',
      reason: 'test',
      condition: 'args.s.matches("a(c|d)")',
    }));
    const compiled = compilePolicy({ name: 'scans', rules });
    const long = { event: 'tool_call', tool: 'shell', args: { s: 'ab'.repeat(30_000) }, agent: { id: 'a' } };
    // Four nodes and a 60 000-character scan each: 16 fit in the budget, the 17th gates.
    const each = 4 + REGEX_STEPS_PER_CHAR * 60_001;
    const fit = Math.floor(POLICY_BUDGET.maxEvaluationCost / each);
    const decision = evaluatePolicy(compiled, long);
    expect(decision).toMatchObject({ action: 'gate', ruleId: `r${fit}`, evaluatedConditions: fit + 1 });
    expect(decision.errors).toEqual([
      { ruleId: `r${fit}`, message: expect.stringContaining('60000-character longest string') },
    ]);
    const short = { ...long, args: { s: 'ab'.repeat(50) } };
    expect(evaluatePolicy(compiled, short)).toMatchObject({ action: 'gate', ruleId: null, errors: [] });
  });

  it('never holds back a condition without comprehensions, however large the request', () => {
    const compiled = compilePolicy(DEFAULT_POLICY);
    const xs = Array.from({ length: 200_000 }, (_, i) => `file-${i}`);
    const decision = evaluatePolicy(compiled, request(xs));
    expect(decision.errors).toEqual([]);
  });
});
