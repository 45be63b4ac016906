import { describe, expect, it } from 'vitest';
import { changedFile, findingsOf } from '../testing/patterns.js';
import { detectCrossFileLaziness } from './index.js';

const changed = (path: string, before: string | null, after: string | null) =>
  changedFile(path, before, after);
const inFile = (path: string, before: string | null, after: string) =>
  findingsOf('lazy.hardcoded_result', { path, before, after });

const CART =
  'export function total(cart: Cart): number {\n  return cart.items.reduce((sum, item) => sum + item.price, 0);\n}\n';
const CART_TEST =
  "import { total } from './cart';\nit('adds up', () => {\n  expect(total(cart)).toBe(110);\n});\n";

describe('lazy.hardcoded_result', () => {
  it('flags a function that now returns the literal a test in the change expects', async () => {
    const findings = detectCrossFileLaziness([
      await changed('src/cart.ts', CART, 'export function total(cart: Cart): number {\n  return 110;\n}\n'),
      await changed('src/cart.test.ts', null, CART_TEST),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      file: 'src/cart.ts',
      line: 2,
      severity: 'critical',
      confidence: 0.9,
      name: 'total',
    });
    expect(findings[0]?.message).toContain('src/cart.test.ts');
  });

  it('flags a special case returning what the test expects, added inside real logic', async () => {
    const after = CART.replace(
      '{\n  return cart',
      "{\n  if (cart.id === 'fixture') return 110;\n  return cart",
    );
    const findings = detectCrossFileLaziness([
      await changed('src/cart.ts', CART, after),
      await changed('src/cart.test.ts', CART_TEST, CART_TEST),
    ]);
    expect(findings.map((f) => f.line)).toEqual([2]);
  });

  it.each([
    [
      'python',
      'shop.py',
      'def total(cart):\n    return sum(i.price for i in cart)\n\ndef test_total():\n    assert total(make()) == 110\n',
      'def total(cart):\n    return 110\n\ndef test_total():\n    assert total(make()) == 110\n',
    ],
    [
      'rust',
      'src/cart.rs',
      'pub fn total(c: &Cart) -> u32 {\n    c.items.iter().sum()\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::total(&cart()), 110);\n    }\n}\n',
      'pub fn total(c: &Cart) -> u32 {\n    110\n}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::total(&cart()), 110);\n    }\n}\n',
    ],
  ] as const)(
    'flags a %s function returning what its own tests in the file expect',
    async (_, path, before, after) => {
      const findings = await inFile(path, before, after);
      expect(findings).toHaveLength(1);
      expect(findings[0]?.name).toBe('total');
    },
  );

  it.each([
    [
      'go',
      'cart_test.go',
      'cart.go',
      'package cart\nfunc Total(c Cart) int {\n\treturn c.Sum()\n}\n',
      'package cart\nfunc Total(c Cart) int {\n\treturn 110\n}\n',
      'package cart\nfunc TestTotal(t *testing.T) {\n\twant := 110\n\tif got := Total(c); got != want {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n',
    ],
    [
      'java',
      'CartTest.java',
      'Cart.java',
      'class Cart { int total() { return items.sum(); } }',
      'class Cart { int total() { return 110; } }',
      'class CartTest { @Test void total() { assertEquals(110, new Cart().total()); } }',
    ],
    [
      'python',
      'test_cart.py',
      'cart.py',
      'def label(c):\n    return c.name.title()\n',
      "def label(c):\n    return 'Blue Mug'\n",
      "def test_label():\n    assert label(c) == 'Blue Mug'\n",
    ],
  ] as const)(
    "flags a %s return matching another file's test",
    async (_, testPath, path, before, after, test) => {
      const findings = detectCrossFileLaziness([
        await changed(path, before, after),
        await changed(testPath, test, test),
      ]);
      expect(findings).toHaveLength(1);
      expect(findings[0]?.file).toBe(path);
    },
  );

  it.each([
    [
      'typescript',
      'src/cart.ts',
      "export function total(c: Cart) {\n  if (process.env.NODE_ENV === 'test') return 110;\n  return c.sum();\n}\n",
      'NODE_ENV',
    ],
    [
      'python',
      'cart.py',
      "def total(c):\n    if 'pytest' in sys.modules:\n        return 110\n    return c.sum()\n",
      'pytest',
    ],
    [
      'go',
      'cart.go',
      'package cart\nfunc Total(c Cart) int {\n\tif testing.Testing() {\n\t\treturn 110\n\t}\n\treturn c.Sum()\n}\n',
      'testing.Testing()',
    ],
    [
      'rust',
      'src/cart.rs',
      'pub fn total(c: &Cart) -> u32 {\n    if cfg!(test) { return 110; }\n    c.sum()\n}\n',
      'cfg!(test)',
    ],
  ] as const)('flags %s production code branching on being under test', async (_, path, after, what) => {
    const findings = await inFile(path, null, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain(what);
  });

  it.each([
    [
      'a constant that no test expects',
      'src/tax.ts',
      'export function rate() {\n  return lookup();\n}\n',
      'export function rate() {\n  return 0.2;\n}\n',
      CART_TEST,
    ],
    [
      'a trivial value a test happens to expect',
      'src/count.ts',
      'export function count(c) {\n  return c.length;\n}\n',
      'export function count(c) {\n  return 0;\n}\n',
      "it('is empty', () => { expect(count([])).toBe(0); });\n",
    ],
    [
      'a return that was already the literal',
      'src/cart.ts',
      'export function total() {\n  return 110;\n}\n',
      '// Fixed price.\nexport function total() {\n  return 110;\n}\n',
      CART_TEST,
    ],
    [
      'a literal in the test file itself',
      'src/cart.test.ts',
      CART_TEST,
      `${CART_TEST}function fixture() { return 110; }\n`,
      CART_TEST,
    ],
  ] as const)('does not flag %s', async (_, path, before, after, test) => {
    const files = [await changed(path, before, after)];
    if (path !== 'src/cart.test.ts') files.push(await changed('src/cart.test.ts', test, test));
    expect(detectCrossFileLaziness(files)).toEqual([]);
    expect(await inFile(path, before, after)).toEqual([]);
  });

  it('does not pair a function with a test of another module that happens to expect its value', async () => {
    const findings = detectCrossFileLaziness([
      await changed(
        'src/status.ts',
        'export function status(r) {\n  return r.state;\n}\n',
        "export function status(r) {\n  return 'paused';\n}\n",
      ),
      await changed(
        'src/cli.test.ts',
        null,
        "import { run } from './cli';\nit('pauses', () => expect(run()).toBe('paused'));\n",
      ),
    ]);
    expect(findings).toEqual([]);
  });

  it('does not read a test-runner check quoted in a string or a comment as a branch', async () => {
    const after =
      "export const EXAMPLE = \"if 'pytest' in sys.modules: return 110\";\n// process.env.NODE_ENV === 'test'\n";
    expect(await inFile('src/catalog.ts', null, after)).toEqual([]);
  });

  it('does not flag a test file that sets NODE_ENV', async () => {
    expect(await inFile('src/app.test.ts', null, "process.env.NODE_ENV === 'test';\n")).toEqual([]);
  });

  it('gives a new function returning an expected literal a confidence a person should check', async () => {
    const findings = detectCrossFileLaziness([
      await changed('src/version.ts', null, "export function version() {\n  return '1.4.0';\n}\n"),
      await changed('src/version.test.ts', null, "it('knows', () => expect(version()).toBe('1.4.0'));\n"),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThan(0.7);
  });
});
