import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import { diffToChanges } from './diff-input.js';
import type { FileChange, FindingKind } from './types.js';

const DESTRUCTIVE: readonly FindingKind[] = [
  'test_removed',
  'test_replaced',
  'assertion_removed',
  'assertion_weakened',
  'skip_added',
  'export_removed',
];

/** The destructive findings of a one-file change, as `kind name@line`, in order. */
async function findingsOf(path: string, before: string | null, after: string | null): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings
    .filter((item) => DESTRUCTIVE.includes(item.kind))
    .map((item) => `${item.kind} ${item.name ?? ''}@${item.line}`);
}

const ts = (body: string) => `import { add } from './add';\n\ndescribe('add', () => {\n${body}\n});\n`;

describe('TypeScript and JavaScript', () => {
  it.each([
    [
      'a test removed',
      ts(
        "  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n  it('zero', () => {\n    expect(add(0, 0)).toBe(0);\n  });",
      ),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ['test_removed add > zero@7'],
    ],
    [
      'an assertion removed',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n    expect(add(2, 2)).toBe(4);\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ['assertion_removed add > adds@6'],
    ],
    [
      'toBe weakened to toBeDefined',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBeDefined();\n  });"),
      ['assertion_weakened add > adds@5'],
    ],
    [
      'an exact value weakened to expect.any',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toEqual({ sum: 3 });\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toEqual(expect.any(Object));\n  });"),
      ['assertion_weakened add > adds@5'],
    ],
    [
      'a number loosened to toBeGreaterThan(0)',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBeGreaterThan(0);\n  });"),
      ['assertion_weakened add > adds@5'],
    ],
    [
      'a value check replaced by not.toThrow',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it('adds', () => {\n    expect(() => add(1, 2)).not.toThrow();\n  });"),
      ['assertion_weakened add > adds@5'],
    ],
    [
      'it.skip added',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
      ts("  it.\u0073kip('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ['skip_added add > adds@4'],
    ],
    [
      'a test function made to skip on a condition',
      "import { test } from 'vitest';\ntest('a', () => {});\n",
      "import { test as base } from 'vitest';\nconst test = base.skipIf(isCi);\ntest('a', () => {});\n",
      ['skip_added @2'],
    ],
    [
      'a should chain weakened over two lines',
      ts("  it('accepts', () => {\n    utils.accepts('text/html')\n      .should.equal('text/html');\n  });"),
      ts("  it('accepts', () => {\n    utils.accepts('text/html')\n      .should.be.ok;\n  });"),
      ['assertion_weakened add > accepts@5'],
    ],
    [
      'xit added',
      ts("  it('adds', () => {});"),
      ts("  \u0078it('adds', () => {});"),
      ['skip_added add > adds@4'],
    ],
    [
      'describe.skip added',
      ts("  it('adds', () => {});"),
      ts("  it('adds', () => {});").replace('describe(', 'describe.\u0073kip('),
      ['skip_added add@3'],
    ],
    [
      'it.todo in place of a test',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it.\u0074odo('adds');"),
      ['skip_added add > adds@4', 'assertion_removed add > adds@5'],
    ],
  ])('flags %s', async (_name, before, after, expected) => {
    expect((await findingsOf('src/add.test.ts', before, after)).sort()).toEqual([...expected].sort());
  });

  it.each([
    [
      'a test renamed with the same body',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it('adds two numbers', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
    ],
    [
      'an assertion rewritten equivalently',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toEqual(3);\n  });"),
      ts("  it('adds', () => {\n    expect(add(1,  2)).toStrictEqual(3);\n  });"),
    ],
    [
      'an assertion made stronger',
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBeDefined();\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
    ],
    [
      'the one test of a suite renamed and reworded',
      ts("  it('returns true', () => {\n    utils.accepts('text/html').should.be.true;\n  });"),
      ts(
        "  it('returns the value', () => {\n    utils.accepts('text/html').should.equal('text/html');\n  });",
      ),
    ],
    [
      'a should property rewritten as assert(null == …)',
      ts("  it('rejects', () => {\n    accepts('a', 'b').should.be.false;\n  });"),
      ts("  it('rejects', () => {\n    assert(null == accepts('a', 'b'));\n  });"),
    ],
    [
      'a .only removed',
      ts("  it.\u006fnly('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
      ts("  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });"),
    ],
    ['a skip removed', ts("  it.\u0073kip('adds', () => {});"), ts("  it('adds', () => {});")],
  ])('does not flag %s', async (_name, before, after) => {
    expect(
      (await findingsOf('src/add.test.ts', before, after)).filter(
        (item) => !item.startsWith('test_replaced'),
      ),
    ).toEqual([]);
  });

  it('calls tests renamed and reworded in one suite replaced, but not an unrelated test added where one was removed', async () => {
    const before = ts(
      "  it('returns true', () => {\n    accepts('text/html', '').should.be.true;\n  });\n  it('returns false', () => {\n    accepts('text/html', 'image/png').should.be.false;\n  });",
    );
    const renamed = ts(
      "  it('returns the value', () => {\n    accepts('text/html', '').should.equal('text/html');\n  });\n  it('returns undefined', () => {\n    accepts('text/html', 'image/png').should.equal(undefined);\n  });",
    );
    expect(await findingsOf('test/accepts.test.js', before, renamed)).toEqual([
      'test_replaced add > returns true@4',
      'test_replaced add > returns false@7',
    ]);
    const unrelated = ts(
      "  it('returns true', () => {\n    accepts('text/html', '').should.be.true;\n  });\n  it('parses a header', () => {\n    parse('a=1').should.eql({ a: 1 });\n  });",
    );
    expect(await findingsOf('test/accepts.test.js', before, unrelated)).toEqual([
      'test_removed add > returns false@7',
    ]);
  });

  it('calls tests folded into one table-driven test replaced', async () => {
    const before = ts(
      "  it('adds one and two', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n  it('adds two and two', () => {\n    expect(add(2, 2)).toBe(4);\n  });",
    );
    const after = ts(
      "  it.each([[1, 2, 3], [2, 2, 4]])('adds %i and %i', (a, b, sum) => {\n    expect(add(a, b)).toBe(sum);\n  });",
    );
    const { findings, facts } = await analyzeChange({ files: [{ path: 'add.test.ts', before, after }] });
    expect(findings.filter((item) => DESTRUCTIVE.includes(item.kind)).map((item) => item.kind)).toEqual([
      'test_replaced',
      'test_replaced',
    ]);
    expect(facts).toMatchObject({ testsRemoved: 2, replacementTests: 2, testsAdded: 0 });
  });

  it('calls assertions moved into a test split off moved, not removed', async () => {
    const before = ts(
      "  it('handles errors', () => {\n    expect(one()).toThrow('a');\n    expect(nested()).toThrow('b');\n  });",
    );
    const after = ts(
      "  it('handles errors', () => {\n    expect(one()).toThrow('a');\n  });\n  it('handles nested errors', () => {\n    expect(nested()).toThrow('b');\n  });",
    );
    expect(await findingsOf('errors.test.ts', before, after)).toEqual([]);
  });

  it('compares the assertions of a test helper file that has no tests of its own', async () => {
    const before =
      'module.exports = function validate(error) {\n  expect(error instanceof Error).toEqual(true);\n  expect(/x/.test(error.message)).toEqual(true);\n};\n';
    const after =
      'module.exports = function validate(error) {\n  expect(/x/.test(error.message)).toEqual(true);\n};\n';
    expect(await findingsOf('test/specs/__validate.js', before, after)).toEqual(['assertion_removed @2']);
  });

  it('counts every test of a deleted test file, and reads JavaScript test files alike', async () => {
    const before = "test('a', () => { assert.equal(f(), 1); });\ntest('b', () => { assert.ok(g()); });\n";
    expect(await findingsOf('test/f.spec.js', before, null)).toEqual([
      'test_removed a@1',
      'test_removed b@2',
    ]);
    expect(
      await findingsOf('test/f.spec.js', before, before.replace('assert.equal(f(), 1)', 'assert.ok(f())')),
    ).toEqual(['assertion_weakened a@1']);
  });

  it('calls a test moved to another file replaced, not removed, and still compares its assertions', async () => {
    const moved = "it('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";
    const files: FileChange[] = [
      { path: 'a.test.ts', before: `${moved}it('keeps', () => {});\n`, after: "it('keeps', () => {});\n" },
      { path: 'b.test.ts', before: null, after: moved.replace('toBe(3)', 'toBeTruthy()') },
    ];
    const { findings, facts } = await analyzeChange({ files });
    const destructive = findings.filter((item) => DESTRUCTIVE.includes(item.kind));
    expect(destructive.map((item) => `${item.kind} ${item.file}@${item.line} ${item.severity}`)).toEqual([
      'test_replaced b.test.ts@1 low',
      'assertion_weakened b.test.ts@2 medium',
    ]);
    expect(facts).toMatchObject({
      testsRemoved: 1,
      replacementTests: 1,
      testsAdded: 0,
      assertionsWeakened: 1,
    });
  });

  it.each([['payments.test.txt'], ['payments.test.ts.disabled'], ['payments.ts']])(
    'flags the tests of a test file renamed to %s, which the runner no longer picks up',
    async (renamed) => {
      const text = ts("  it('charges', () => {\n    expect(charge(5)).toBe(5);\n  });");
      const { findings, facts } = await analyzeChange({
        files: [{ path: `src/${renamed}`, oldPath: 'src/payments.test.ts', before: text, after: text }],
      });
      expect(findings.map((item) => `${item.kind} ${item.name}@${item.line} ${item.severity}`)).toEqual([
        'test_removed add > charges@4 high',
      ]);
      expect(findings[0]?.message).toContain(`src/${renamed}`);
      expect(facts).toMatchObject({ testsRemoved: 1, replacementTests: 0 });
    },
  );

  it('flags a test file renamed in a diff that shows no content', async () => {
    const diff =
      'diff --git a/src/payments.test.ts b/src/payments.test.txt\nsimilarity index 100%\nrename from src/payments.test.ts\nrename to src/payments.test.txt\n';
    const { findings, facts } = await analyzeChange({ files: diffToChanges(diff) });
    expect(findings.map((item) => `${item.kind} ${item.file}@${item.line}`)).toEqual([
      'test_removed src/payments.test.txt@null',
    ]);
    expect(facts.testsRemoved).toBe(1);
  });

  it('does not flag a test file moved where the runner still picks it up', async () => {
    const text = ts("  it('charges', () => {\n    expect(charge(5)).toBe(5);\n  });");
    for (const [oldPath, path] of [
      ['src/payments.test.ts', 'test/payments.test.ts'],
      ['src/payments.test.js', 'src/payments.test.ts'],
      ['test/payments.test.js', 'test/payments.js'],
    ] as const) {
      const { findings } = await analyzeChange({ files: [{ path, oldPath, before: text, after: text }] });
      expect(findings.filter((item) => DESTRUCTIVE.includes(item.kind))).toEqual([]);
    }
  });

  it('does not count tests moved into empty ones of the same names as replaced', async () => {
    const real = ts(
      "  it('charges', () => {\n    expect(charge(5)).toBe(5);\n  });\n  it('refunds', () => {\n    expect(refund(5)).toBe(-5);\n  });",
    );
    const hollow = ts("  it('charges', () => {});\n  it('refunds', () => {});");
    const { findings, facts } = await analyzeChange({
      files: [
        { path: 'src/payments.test.ts', before: real, after: null },
        { path: 'src/payments.spec.ts', before: null, after: hollow },
      ],
    });
    expect(
      findings.filter((item) => DESTRUCTIVE.includes(item.kind)).map((item) => `${item.kind} ${item.name}`),
    ).toEqual([
      'test_removed add > charges',
      'test_removed add > refunds',
      'assertion_removed add > charges',
      'assertion_removed add > refunds',
    ]);
    expect(facts).toMatchObject({ testsRemoved: 2, replacementTests: 0, assertionsRemoved: 2 });
  });

  it('flags exported functions and classes removed, not private helpers nor names exported again elsewhere', async () => {
    const before =
      'export function add() {}\nexport class Calc {}\nexport const PI = 3;\nfunction helper() {}\nexport { helper as assist };\n';
    const after = 'export function add() {}\n';
    const { findings } = await analyzeChange({
      files: [
        { path: 'src/calc.ts', before, after },
        { path: 'src/pi.ts', before: null, after: 'export const PI = 3;\n' },
      ],
    });
    expect(findings.map((item) => `${item.kind} ${item.name} ${item.severity}`)).toEqual([
      'export_removed Calc high',
      'export_removed assist medium',
    ]);
  });

  it.each([
    [
      'a local of an exported function inlined',
      'export function f(a) {\n  const x = a * 2;\n  return x;\n}\n',
      'export function f(a) {\n  return a * 2;\n}\n',
    ],
    [
      'a local of an exported arrow function inlined',
      'export const f = (a) => {\n  let x = a * 2;\n  return x;\n};\n',
      'export const f = (a) => a * 2;\n',
    ],
    [
      'a local of an exported class method removed',
      'export class C {\n  m() {\n    var y = 1;\n    return y;\n  }\n}\n',
      'export class C {\n  m() {\n    return 1;\n  }\n}\n',
    ],
    [
      'an underscore-named export removed',
      'export function add() {}\nexport function _reset() {}\nexport const _cache = new Map();\n',
      'export function add() {}\n',
    ],
  ])('does not read %s as public API removed', async (_name, before, after) => {
    const { findings, facts } = await analyzeChange({ files: [{ path: 'src/f.ts', before, after }] });
    expect(findings.filter((item) => item.kind === 'export_removed')).toEqual([]);
    expect(facts.featuresRemoved).toBe(0);
  });
});
