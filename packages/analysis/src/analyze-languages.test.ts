import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import type { FindingKind } from './types.js';

const DESTRUCTIVE: readonly FindingKind[] = [
  'test_removed',
  'test_replaced',
  'assertion_removed',
  'assertion_weakened',
  'skip_added',
  'export_removed',
];

/** The destructive findings of a one-file change, as `kind name`, sorted. */
async function findingsOf(path: string, before: string | null, after: string | null): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings
    .filter((item) => DESTRUCTIVE.includes(item.kind))
    .map((item) => `${item.kind} ${item.name ?? ''}`)
    .sort();
}

type Row = [name: string, path: string, before: string, after: string, expected: string[]];

const py = (body: string) => `import pytest\nfrom calc import add\n\n\n${body}\n`;
const pyClass = (body: string) => `import unittest\n\n\nclass TestAdd(unittest.TestCase):\n${body}\n`;
const go = (body: string) => `package calc\n\nimport "testing"\n\n${body}\n`;
const java = (body: string) =>
  `import org.junit.jupiter.api.*;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass CalcTest {\n${body}\n}\n`;
const rust = (body: string) => `#[cfg(test)]\nmod tests {\n    use super::*;\n${body}\n}\n`;

const flagged: Row[] = [
  [
    'Python: a test removed',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3\n\n\ndef test_zero():\n    assert add(0, 0) == 0'),
    py('def test_add():\n    assert add(1, 2) == 3'),
    ['test_removed test_zero'],
  ],
  [
    'Python: assert x == 1 weakened to assert x',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3'),
    py('def test_add():\n    assert add(1, 2)'),
    ['assertion_weakened test_add'],
  ],
  [
    'Python: assertEqual weakened to assertIsNotNone',
    'test_calc.py',
    pyClass('    def test_add(self):\n        self.assertEqual(add(1, 2), 3)'),
    pyClass('    def test_add(self):\n        self.assertIsNotNone(add(1, 2))'),
    ['assertion_weakened TestAdd.test_add'],
  ],
  [
    'Python: an assertion removed',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3\n    assert add(2, 2) == 4'),
    py('def test_add():\n    assert add(1, 2) == 3'),
    ['assertion_removed test_add'],
  ],
  [
    'Python: @pytest.mark.skip added',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3'),
    py('@pytest.mark.skip(reason="flaky")\ndef test_add():\n    assert add(1, 2) == 3'),
    ['skip_added test_add'],
  ],
  [
    'Python: xfail added',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3'),
    py('@pytest.mark.xfail\ndef test_add():\n    assert add(1, 2) == 3'),
    ['skip_added test_add'],
  ],
  [
    'Python: unittest.skip on a class',
    'test_calc.py',
    pyClass('    def test_add(self):\n        self.assertEqual(add(1, 2), 3)'),
    pyClass('    def test_add(self):\n        self.assertEqual(add(1, 2), 3)').replace(
      'class TestAdd',
      '@unittest.skip("later")\nclass TestAdd',
    ),
    ['skip_added TestAdd'],
  ],
  [
    'Python: a public function and class removed',
    'calc.py',
    'def add(a, b):\n    return a + b\n\n\nclass Calc:\n    pass\n',
    '',
    ['export_removed Calc', 'export_removed add'],
  ],
  [
    'Go: a test removed',
    'calc_test.go',
    go(
      'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tassert.Equal(t, 0, Add(0, 0))\n}',
    ),
    go('func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}'),
    ['test_removed TestZero'],
  ],
  [
    'Go: t.Skip added',
    'calc_test.go',
    go('func TestAdd(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    go('func TestAdd(t *testing.T) {\n\tt.Skip("later")\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    ['skip_added TestAdd'],
  ],
  [
    'Go: assert.Equal weakened to assert.NotNil',
    'calc_test.go',
    go('func TestAdd(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    go('func TestAdd(t *testing.T) {\n\tassert.NotNil(t, Add(1, 2))\n}'),
    ['assertion_weakened TestAdd'],
  ],
  [
    'Go: a subtest removed',
    'calc_test.go',
    go(
      'func TestAdd(t *testing.T) {\n\tt.Run("one", func(t *testing.T) {\n\t\tassert.Equal(t, 2, Add(1, 1))\n\t})\n\tt.Run("two", func(t *testing.T) {\n\t\tassert.Equal(t, 4, Add(2, 2))\n\t})\n}',
    ),
    go(
      'func TestAdd(t *testing.T) {\n\tt.Run("one", func(t *testing.T) {\n\t\tassert.Equal(t, 2, Add(1, 1))\n\t})\n}',
    ),
    ['test_removed TestAdd/two'],
  ],
  [
    'Go: exported function, method and type removed',
    'calc.go',
    'package calc\n\ntype Calc struct{}\n\nfunc (c *Calc) Sum() int { return 0 }\n\nfunc Add(a, b int) int { return a + b }\n\nfunc helper() {}\n',
    'package calc\n',
    ['export_removed Add', 'export_removed Calc', 'export_removed Calc.Sum'],
  ],
  [
    'Java: a JUnit 3 test removed',
    'CalcTest.java',
    'public class CalcTest extends TestCase {\n  public void testAdd() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n  public void testZero() {\n    assertEquals(0, Calc.add(0, 0));\n  }\n}\n',
    'public class CalcTest extends TestCase {\n  public void testAdd() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n}\n',
    ['test_removed CalcTest.testZero'],
  ],
  [
    'Python: a skip mark on one parametrised case',
    'test_calc.py',
    py('@pytest.mark.parametrize("n", [1, 2])\ndef test_add(n):\n    assert add(n, 0) == n'),
    py(
      '@pytest.mark.parametrize("n", [pytest.param(1, marks=pytest.mark.skip(reason="ci")), 2])\ndef test_add(n):\n    assert add(n, 0) == n',
    ),
    ['skip_added test_add'],
  ],
  [
    'Rust: #[ignore] with a comment after it',
    'tests/calc.rs',
    '#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n',
    '#[test]\n#[ignore] // flaky, see #1\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n',
    ['skip_added adds'],
  ],
  [
    'Java: a test removed',
    'CalcTest.java',
    java(
      '  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }\n\n  @Test\n  void zero() {\n    assertEquals(0, Calc.add(0, 0));\n  }',
    ),
    java('  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }'),
    ['test_removed CalcTest.zero'],
  ],
  [
    'Java: assertEquals weakened to assertNotNull',
    'CalcTest.java',
    java('  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }'),
    java('  @Test\n  void adds() {\n    assertNotNull(Calc.add(1, 2));\n  }'),
    ['assertion_weakened CalcTest.adds'],
  ],
  [
    'Java: AssertJ isEqualTo weakened to isNotNull',
    'CalcTest.java',
    java('  @Test\n  void adds() {\n    assertThat(Calc.add(1, 2)).isEqualTo(3);\n  }'),
    java('  @Test\n  void adds() {\n    assertThat(Calc.add(1, 2)).isNotNull();\n  }'),
    ['assertion_weakened CalcTest.adds'],
  ],
  [
    'Java: @Disabled added',
    'CalcTest.java',
    java('  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }'),
    java('  @Test\n  @Disabled("flaky")\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }'),
    ['skip_added CalcTest.adds'],
  ],
  [
    'Java: @Ignore added on the class',
    'CalcTest.java',
    java('  @Test\n  void adds() {}'),
    java('  @Test\n  void adds() {}').replace('class CalcTest', '@Ignore\nclass CalcTest'),
    ['skip_added CalcTest'],
  ],
  [
    'Java: a public class and method removed',
    'Calc.java',
    'public class Calc {\n  public static int add(int a, int b) { return a + b; }\n  private int helper() { return 0; }\n}\n',
    'class Other {}\n',
    ['export_removed Calc', 'export_removed Calc.add'],
  ],
  [
    'Rust: a test removed',
    'src/calc.rs',
    rust(
      '    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n\n    #[test]\n    fn zero() {\n        assert_eq!(add(0, 0), 0);\n    }',
    ),
    rust('    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }'),
    ['test_removed tests::zero'],
  ],
  [
    'Rust: assert_eq! weakened to assert!(is_ok())',
    'src/calc.rs',
    rust('    #[test]\n    fn parses() {\n        assert_eq!(parse("1"), Ok(1));\n    }'),
    rust('    #[test]\n    fn parses() {\n        assert!(parse("1").is_ok());\n    }'),
    ['assertion_weakened tests::parses'],
  ],
  [
    'Rust: #[ignore] added',
    'src/calc.rs',
    rust('    #[tokio::test]\n    async fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }'),
    rust(
      '    #[tokio::test]\n    #[ignore]\n    async fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }',
    ),
    ['skip_added tests::adds'],
  ],
  [
    'Rust: pub items removed',
    'src/calc.rs',
    'pub struct Calc;\n\nimpl Calc {\n    pub fn add(&self) -> i32 { 0 }\n}\n\npub(crate) fn inner() {}\nfn private() {}\n',
    '',
    ['export_removed Calc', 'export_removed Calc::add'],
  ],
];

const legitimate: Row[] = [
  [
    'Rust: assert_eq! rewritten as a snapshot assert_data_eq!',
    'tests/help.rs',
    '#[test]\nfn help() {\n    assert_eq!(render(), EXPECTED);\n}\n',
    '#[test]\nfn help() {\n    assert_data_eq!(render(), str![[r#"usage"#]]);\n}\n',
    [],
  ],
  [
    'Python: tests folded into a parametrised test',
    'test_calc.py',
    py('def test_one():\n    assert add(1, 0) == 1\n\n\ndef test_two():\n    assert add(2, 0) == 2'),
    py('@pytest.mark.parametrize("n", [1, 2])\ndef test_identity(n):\n    assert add(n, 0) == n'),
    ['test_replaced test_one', 'test_replaced test_two'],
  ],
  [
    'Python: a test renamed',
    'test_calc.py',
    py('def test_add():\n    result = add(1, 2)\n    assert result == 3'),
    py('def test_add_two_numbers():\n    result = add(1, 2)\n    assert result == 3'),
    ['test_replaced test_add'],
  ],
  [
    'Python: a test moved into a class',
    'test_calc.py',
    py('def test_add():\n    assert add(1, 2) == 3'),
    py('class TestCalc:\n    def test_add(self):\n        assert add(1, 2) == 3'),
    [],
  ],
  [
    'Python: an assertion rewritten equivalently',
    'test_calc.py',
    pyClass('    def test_add(self):\n        self.assertEqual(add(1, 2), 3)'),
    pyClass('    def test_add(self):\n        assert add(1, 2) == 3'),
    [],
  ],
  [
    'Python: a private helper removed',
    'calc.py',
    'def add(a, b):\n    return _check(a) + b\n\n\ndef _check(a):\n    return a\n',
    'def add(a, b):\n    return a + b\n',
    [],
  ],
  [
    'Python: a function nested in a public function removed',
    'calc.py',
    'def add(a, b):\n    def check(x):\n        return x\n\n    return check(a) + b\n',
    'def add(a, b):\n    return a + b\n',
    [],
  ],
  [
    'Python: a name outside __all__ removed',
    'calc.py',
    '__all__ = ["add"]\n\n\ndef add(a, b):\n    return a + b\n\n\ndef internal():\n    pass\n',
    '__all__ = ["add"]\n\n\ndef add(a, b):\n    return a + b\n',
    [],
  ],
  [
    'Go: a test renamed',
    'calc_test.go',
    go('func TestAdd(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    go('func TestAddTwoNumbers(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    ['test_replaced TestAdd'],
  ],
  [
    'Go: an unexported function removed',
    'calc.go',
    'package calc\n\nfunc helper() {}\n\nfunc Add() {}\n',
    'package calc\n\nfunc Add() {}\n',
    [],
  ],
  [
    'Go: require swapped for assert',
    'calc_test.go',
    go('func TestAdd(t *testing.T) {\n\trequire.Equal(t, 3, Add(1, 2))\n}'),
    go('func TestAdd(t *testing.T) {\n\tassert.Equal(t, 3, Add(1, 2))\n}'),
    [],
  ],
  [
    'Java: JUnit assertion rewritten as AssertJ',
    'CalcTest.java',
    java('  @Test\n  void adds() {\n    assertEquals(3, Calc.add(1, 2));\n  }'),
    java('  @Test\n  void adds() {\n    assertThat(Calc.add(1, 2)).isEqualTo(3);\n  }'),
    [],
  ],
  [
    'Java: assertFalse(a.equals(b)) rewritten as assertNotEquals',
    'CalcTest.java',
    java('  @Test\n  void differs() {\n    assertFalse(a.equals(b));\n  }'),
    java('  @Test\n  void differs() {\n    assertNotEquals(a, b);\n  }'),
    [],
  ],
  [
    'Python: a helper with an assertion removed from a whole test file',
    'test_calc.py',
    py('def check(x):\n    assert x\n\n\ndef test_add():\n    assert add(1, 2) == 3'),
    py('def test_add():\n    assert add(1, 2) == 3'),
    [],
  ],
  [
    'Java: a private method removed',
    'Calc.java',
    'public class Calc {\n  private int helper() { return 0; }\n}\n',
    'public class Calc {\n}\n',
    [],
  ],
  [
    'Rust: a test renamed',
    'src/calc.rs',
    rust('    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }'),
    rust('    #[test]\n    fn adds_two_numbers() {\n        assert_eq!(add(1, 2), 3);\n    }'),
    ['test_replaced tests::adds'],
  ],
  [
    'Rust: a private fn removed',
    'src/calc.rs',
    'pub fn add() {}\nfn helper() {}\npub(crate) fn inner() {}\n',
    'pub fn add() {}\n',
    [],
  ],
];

describe('Python, Go, Java and Rust', () => {
  it.each(flagged)('flags %s', async (_name, path, before, after, expected) => {
    expect(await findingsOf(path, before, after === '' ? null : after)).toEqual(expected);
  });

  it.each(legitimate)('does not flag %s', async (_name, path, before, after, expected) => {
    expect(await findingsOf(path, before, after)).toEqual(expected);
  });

  it.each([
    ['deleted', null],
    ['emptied', '"""Helpers moved to calc."""\n'],
  ])('does not flag functions moved out of a private module (%s) into private names', async (_how, left) => {
    const helpers = 'def parse(text):\n    return int(text)\n\n\ndef render(value):\n    return str(value)\n';
    const { findings } = await analyzeChange({
      files: [
        { path: 'calc/_utils.py', before: helpers, after: left },
        {
          path: 'calc/core.py',
          before: 'from ._utils import parse\n\n\ndef add(a, b):\n    return parse(a) + b\n',
          after: `${helpers.replace(/def /g, 'def _')}\n\ndef add(a, b):\n    return _parse(a) + b\n`,
        },
      ],
    });
    expect(findings.filter((item) => item.kind === 'export_removed')).toEqual([]);
  });
});
