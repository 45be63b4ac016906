import { describe, expect, it } from 'vitest';
import { changedFile, findingsOf } from '../testing/patterns.js';
import { detectCrossFileLaziness } from './index.js';

const changed = (path: string, before: string | null, after: string | null) =>
  changedFile(path, before, after);

const PATTERN = 'lazy.assertion_deleted_to_pass';
const CART = 'export function total(cart) {\n  return cart.items.reduce((s, i) => s + i.price, 0);\n}\n';
const CART_TEST =
  "import { total } from './cart';\n\ndescribe('total', () => {\n  it('adds tax', () => {\n    expect(total(cart)).toBeGreaterThan(0);\n    expect(total(cart)).toBe(110);\n  });\n});\n";
const BENT_TEST = CART_TEST.replace('    expect(total(cart)).toBe(110);\n', '');

describe('lazy.assertion_deleted_to_pass', () => {
  it('flags a test that lost an assertion while the function it calls changed in another file', async () => {
    const findings = detectCrossFileLaziness([
      await changed('src/cart.ts', CART, CART.replace('i.price', 'i.net')),
      await changed('src/cart.test.ts', CART_TEST, BENT_TEST),
    ]);
    expect(findings.filter((f) => f.pattern === PATTERN)).toEqual([
      expect.objectContaining({ file: 'src/cart.test.ts', line: 4, severity: 'critical', confidence: 0.9 }),
    ]);
    expect(findings[0]?.name).toBe("describe('total') > it('adds tax')");
    expect(findings[0]?.message).toContain('toBe(110)');
  });

  it('gives a test that now calls a new helper a confidence a person should check (the assertion may have moved there)', async () => {
    const helper =
      "export async function totalOf(cart) {\n  const value = total(cart);\n  if (value !== 110) throw new Error('total');\n  return value;\n}\n";
    const moved = CART_TEST.replace('    expect(total(cart)).toBe(110);\n', '    await totalOf(cart);\n');
    const findings = detectCrossFileLaziness([
      await changed('src/cart.ts', CART, CART.replace('i.price', 'i.net')),
      await changed('src/testing/totals.ts', null, helper),
      await changed('src/cart.test.ts', CART_TEST, moved),
    ]);
    expect(findings.map((f) => [f.pattern, f.confidence])).toEqual([[PATTERN, 0.63]]);
  });

  it.each([
    [
      'python',
      'shop.py',
      'def total(c):\n    return sum(c)\n\ndef test_total():\n    assert total([1]) == 1\n    assert total([]) == 0\n',
      'def total(c):\n    return sum(c) + 1\n\ndef test_total():\n    assert total([1]) == 2\n',
    ],
    [
      'rust',
      'src/cart.rs',
      'pub fn total(c: &[u32]) -> u32 {\n    c.iter().sum()\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn sums() {\n        assert_eq!(super::total(&[1]), 1);\n        assert_eq!(super::total(&[]), 0);\n    }\n}\n',
      'pub fn total(c: &[u32]) -> u32 {\n    c.iter().sum::<u32>() + 1\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn sums() {\n        assert_eq!(super::total(&[1]), 2);\n    }\n}\n',
    ],
  ] as const)(
    'flags a %s test bent to the code beside it in the same file',
    async (language, path, before, after) => {
      const findings = await findingsOf(PATTERN, { language, path, before, after });
      expect(findings.length).toBeGreaterThanOrEqual(1);
      expect(findings[0]?.severity).toBe('critical');
    },
  );

  it.each([
    [
      'go',
      'cart_test.go',
      'cart.go',
      'package cart\nfunc Total(c []int) int { return sum(c) }\n',
      'package cart\nfunc TestTotal(t *testing.T) {\n\tif Total(nil) != 0 {\n\t\tt.Error("empty")\n\t}\n\tif Total([]int{1}) != 1 {\n\t\tt.Error("one")\n\t}\n}\n',
    ],
    [
      'java',
      'CartTest.java',
      'Cart.java',
      'class Cart { int total() { return items.sum(); } }',
      'class CartTest {\n  @Test void total() {\n    assertEquals(0, new Cart().total());\n    assertTrue(new Cart().isEmpty());\n  }\n}\n',
    ],
  ] as const)('flags a %s test bent to the code across files', async (_, testPath, path, code, test) => {
    const lines = test.split('\n');
    const bent = testPath.endsWith('.go')
      ? test.replace('\tif Total([]int{1}) != 1 {\n\t\tt.Error("one")\n\t}\n', '')
      : lines.filter((line) => !line.includes('assertTrue')).join('\n');
    const findings = detectCrossFileLaziness([
      await changed(path, code, code.replace('sum', 'total')),
      await changed(testPath, test, bent),
    ]);
    expect(findings.filter((f) => f.pattern === PATTERN)).toHaveLength(1);
  });

  it.each([
    [
      'an assertion removed while the code stayed the same',
      async () => [
        await changed('src/cart.ts', CART, CART),
        await changed('src/cart.test.ts', CART_TEST, BENT_TEST),
      ],
    ],
    [
      'an assertion removed while an unrelated file changed',
      async () => [
        await changed('src/log.ts', 'export const a = 1;\n', 'export const a = 2;\n'),
        await changed('src/cart.test.ts', CART_TEST, BENT_TEST),
      ],
    ],
    [
      'a whole test removed (reported as a removed test)',
      async () => [
        await changed('src/cart.ts', CART, CART.replace('i.price', 'i.net')),
        await changed('src/cart.test.ts', CART_TEST, "import { total } from './cart';\n"),
      ],
    ],
    [
      'an assertion rewritten next to a code change',
      async () => [
        await changed('src/cart.ts', CART, CART.replace('i.price', 'i.net')),
        await changed('src/cart.test.ts', CART_TEST, CART_TEST.replace('toBe(110)', 'toBe(100)')),
      ],
    ],
  ] as const)('does not flag %s', async (_, files) => {
    const findings = detectCrossFileLaziness(await files());
    expect(findings.filter((f) => f.pattern === PATTERN)).toEqual([]);
  });
});
