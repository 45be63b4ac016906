import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** Findings of a one-file change as `kind pattern`, sorted. */
async function findingsOf(path: string, before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings.map((item) => `${item.kind} ${item.kind === 'laziness' ? item.pattern : ''}`.trim()).sort();
}

const js = (assertion: string, imports: string) =>
  `${imports}\nimport { add } from './add.js';\n\ntest('adds', (t) => {\n  ${assertion};\n});\n`;

describe('analyzeChange across assertion libraries', () => {
  it.each([
    [
      'ava: t.is to t.truthy',
      'add.test.js',
      "import test from 'ava';",
      't.is(add(1, 2), 3)',
      't.truthy(add(1, 2))',
    ],
    [
      'ava: t.deepEqual to t.truthy',
      'add.test.js',
      "import test from 'ava';",
      't.deepEqual(add(1, 2), 3)',
      't.truthy(add(1, 2))',
    ],
    [
      'tap: t.equal to t.ok',
      'add.test.js',
      "import t0 from 'tap';\nconst { test } = t0;",
      't.equal(add(1, 2), 3)',
      't.ok(add(1, 2))',
    ],
    [
      'node:test: assert.strictEqual to assert.ok',
      'add.test.js',
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';",
      'assert.strictEqual(add(1, 2), 3)',
      'assert.ok(add(1, 2))',
    ],
    [
      'Vitest: toBe to toBeTruthy',
      'add.test.ts',
      "import { test, expect } from 'vitest';",
      'expect(add(1, 2)).toBe(3)',
      'expect(add(1, 2)).toBeTruthy()',
    ],
  ])('finds an assertion weakened with %s', async (_, path, imports, before, after) => {
    expect(await findingsOf(path, js(before, imports), js(after, imports))).toContain('assertion_weakened');
  });

  it.each([
    [
      'testify: assert.Equal to assert.NotNil',
      'calc_test.go',
      'package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestAdd(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}\n',
      'package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestAdd(t *testing.T) {\n\tassert.NotNil(t, Add(1, 2))\n}\n',
    ],
    [
      'testify: require.Equal to require.NoError',
      'calc_test.go',
      'package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/require"\n)\n\nfunc TestParse(t *testing.T) {\n\tn, err := Parse("3")\n\trequire.NoError(t, err)\n\trequire.Equal(t, 3, n)\n}\n',
      'package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/require"\n)\n\nfunc TestParse(t *testing.T) {\n\t_, err := Parse("3")\n\trequire.NoError(t, err)\n\trequire.NoError(t, err)\n}\n',
    ],
    [
      'JUnit: assertEquals to assertNotNull',
      'CalcTest.java',
      'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass CalcTest {\n  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n',
      'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass CalcTest {\n  @Test\n  void adds() {\n    assertNotNull(Calc.add(1, 2));\n  }\n}\n',
    ],
    [
      'AssertJ: isEqualTo to isNotNull',
      'CalcTest.java',
      'import org.junit.jupiter.api.Test;\nimport static org.assertj.core.api.Assertions.assertThat;\n\nclass CalcTest {\n  @Test\n  void adds() {\n    assertThat(Calc.add(1, 2)).isEqualTo(3);\n  }\n}\n',
      'import org.junit.jupiter.api.Test;\nimport static org.assertj.core.api.Assertions.assertThat;\n\nclass CalcTest {\n  @Test\n  void adds() {\n    assertThat(Calc.add(1, 2)).isNotNull();\n  }\n}\n',
    ],
  ])('finds an assertion weakened with %s', async (_, path, before, after) => {
    expect(await findingsOf(path, before, after)).toContain('assertion_weakened');
  });

  it.each([
    ['tap', "import t from 'tap';"],
    [
      'node:test',
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('math', async (t) => {});",
    ],
  ])('finds a %s subtest (t.test) removed', async (_, head) => {
    const sub = (name: string, call: string) =>
      `t.test('${name}', (t) => {\n  t.equal(${call}, 1);\n  t.end();\n});\n`;
    const before = `${head}\n${sub('adds', 'add(0, 1)')}${sub('subtracts', 'sub(2, 1)')}`;
    const after = `${head}\n${sub('adds', 'add(0, 1)')}`;
    expect(await findingsOf('math.test.js', before, after)).toContain('test_removed');
  });

  it('finds pytest.raises(ValueError, match=...) weakened to pytest.raises(Exception)', async () => {
    const test = (raises: string) =>
      `import pytest\n\n\ndef test_negative():\n    with ${raises}:\n        parse(-1)\n`;
    const before = test('pytest.raises(ValueError, match="negative")');
    expect(await findingsOf('test_parse.py', before, test('pytest.raises(Exception)'))).toContain(
      'assertion_weakened',
    );
  });

  it('finds a Go testing check loosened from got != want to a zero check', async () => {
    const test = (condition: string) =>
      `package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(1, 2)\n\tif ${condition} {\n\t\tt.Fatalf("Add(1, 2) = %d", got)\n\t}\n}\n`;
    expect(await findingsOf('calc_test.go', test('got != 3'), test('got == 0'))).toContain(
      'assertion_weakened',
    );
  });

  it('finds a Go testing check removed from a test that stays', async () => {
    const test = (body: string) =>
      `package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(1, 2)\n${body}\t_ = got\n}\n`;
    const before = test('\tif got != 3 {\n\t\tt.Errorf("Add(1, 2) = %d, want 3", got)\n\t}\n');
    expect(await findingsOf('calc_test.go', before, test(''))).toContain('assertion_removed');
  });
});

describe('analyzeChange on Go and Python placeholders', () => {
  const load = (handling: string) =>
    `package config\n\nfunc Load(path string) (*Config, error) {\n\tcfg, err := read(path)\n\tif err != nil {\n\t\t${handling}\n\t}\n\treturn cfg, nil\n}\n`;

  it('finds an error dropped by `return x, nil` inside an `err != nil` branch', async () => {
    const findings = await findingsOf('config.go', load('return nil, err'), load('return cfg, nil'));
    expect(findings).toContain('laziness lazy.error_swallowed');
  });

  it('passes an `err != nil` branch that returns the error with a value', async () => {
    const findings = await findingsOf(
      'config.go',
      load('return nil, err'),
      load('return cfg, fmt.Errorf("load: %w", err)'),
    );
    expect(findings).toEqual([]);
  });

  it('finds a Go body replaced by a TODO and a zero-value return', async () => {
    const before =
      'package calc\n\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, n := range items {\n\t\tsum += n\n\t}\n\treturn sum\n}\n';
    const after = 'package calc\n\nfunc Total(items []int) int {\n\t// TODO: sum the items\n\treturn 0\n}\n';
    expect(await findingsOf('calc.go', before, after)).toContain('laziness lazy.placeholder_body');
  });

  it('finds a Python body elided by an "existing code" comment that still returns a value', async () => {
    const before =
      'def make_validator(schema):\n    validator = Validator(schema)\n    validator.check_schema()\n    validator.register_formats(FORMATS)\n    return validator\n';
    const after = 'def make_validator(schema):\n    # ... existing code ...\n    return validator\n';
    expect(await findingsOf('validators.py', before, after)).toContain('laziness lazy.placeholder_body');
  });

  it('passes a comment about existing code added beside code that stays', async () => {
    const before = 'def load(path):\n    data = read(path)\n    return parse(data)\n';
    const after =
      'def load(path):\n    # the existing code path also serves old configs\n    data = read(path)\n    return parse(data)\n';
    expect(await findingsOf('loader.py', before, after)).toEqual([]);
  });
});
