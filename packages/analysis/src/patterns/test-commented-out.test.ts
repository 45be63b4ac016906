import { describe, expect, it } from 'vitest';
import { findingsOf } from '../testing/patterns.js';
import type { LanguageId } from '../types.js';

const detect = (language: LanguageId, path: string, before: string | null, after: string) =>
  findingsOf('lazy.test_commented_out', { language, path, before, after });

const TS_BEFORE =
  "it('adds tax', () => {\n  expect(total(cart)).toBe(110);\n});\n\nit('rounds', () => {\n  expect(round(1.005)).toBe(1.01);\n});\n";

describe('lazy.test_commented_out', () => {
  it('flags a test case turned into line comments, once for the block', async () => {
    const after =
      "it('adds tax', () => {\n  expect(total(cart)).toBe(110);\n});\n\n// it('rounds', () => {\n//   expect(round(1.005)).toBe(1.01);\n// });\n";
    const findings = await detect('typescript', 'cart.test.ts', TS_BEFORE, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 5, severity: 'high', confidence: 0.9 });
    expect(findings[0]?.message).toContain("it('rounds'");
  });

  it('flags a test case wrapped in a block comment', async () => {
    const after =
      "it('adds tax', () => {\n  expect(total(cart)).toBe(110);\n});\n/*\nit('rounds', () => {\n  expect(round(1.005)).toBe(1.01);\n});\n*/\n";
    expect(await detect('javascript', 'cart.test.js', TS_BEFORE, after)).toHaveLength(1);
  });

  it.each([
    [
      'python',
      'test_cart.py',
      'def test_total():\n    cart = make()\n    assert total(cart) == 110\n',
      'def test_total():\n    cart = make()\n    # assert total(cart) == 110\n',
    ],
    [
      'go',
      'cart_test.go',
      'package cart\nfunc TestTotal(t *testing.T) {\n\tif Total(c) != 110 {\n\t\tt.Errorf("got %d", Total(c))\n\t}\n}\n',
      'package cart\nfunc TestTotal(t *testing.T) {\n\t// if Total(c) != 110 {\n\t// \tt.Errorf("got %d", Total(c))\n\t// }\n}\n',
    ],
    [
      'java',
      'CartTest.java',
      'class CartTest {\n  @Test void total() {\n    assertEquals(110, cart.total());\n  }\n}\n',
      'class CartTest {\n  @Test void total() {\n    // assertEquals(110, cart.total());\n  }\n}\n',
    ],
    [
      'rust',
      'src/cart.rs',
      '#[test]\nfn total() {\n    assert_eq!(total(&cart()), 110);\n}\n',
      '#[test]\nfn total() {\n    // assert_eq!(total(&cart()), 110);\n}\n',
    ],
  ] as const)('flags a %s assertion commented out', async (language, path, before, after) => {
    const findings = await detect(language, path, before, after);
    expect(findings).toHaveLength(1);
  });

  it.each([
    [
      'a new explanatory comment',
      'typescript',
      'cart.test.ts',
      TS_BEFORE,
      `// Totals include tax.\n${TS_BEFORE}`,
    ],
    [
      'a test deleted outright (the analysis reports removed tests)',
      'typescript',
      'cart.test.ts',
      TS_BEFORE,
      "it('adds tax', () => {\n  expect(total(cart)).toBe(110);\n});\n",
    ],
    [
      'a commented-out example that was already there',
      'python',
      'test_a.py',
      '# assert f() == 1\ndef test_a():\n    assert g() == 2\n',
      '# assert f() == 1\ndef test_a():\n    assert g() == 3\n',
    ],
    [
      'a doc comment that quotes an assertion still in the code',
      'typescript',
      'a.test.ts',
      'expect(a).toBe(1);\n',
      '// expect(a).toBe(1);\nexpect(a).toBe(1);\n',
    ],
  ] as const)('does not flag %s', async (_, language, path, before, after) => {
    expect(await detect(language, path, before, after)).toEqual([]);
  });

  it('reads comments by line in other languages, at lower confidence', async () => {
    const findings = await detect(
      'other',
      'cart_spec.rb',
      "it 'adds' do\n  assert_equal 110, total\nend\n",
      "it 'adds' do\n  # assert_equal 110, total\nend\n",
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThanOrEqual(0.6);
  });
});
