import { describe, expect, it } from 'vitest';
import { findingsOf } from '../testing/patterns.js';

const detect = (path: string, before: string | null, after: string) =>
  findingsOf('lazy.mock_unit_under_test', { path, before, after });

const TS_TEST =
  "import { total } from './cart';\nimport { price } from './prices';\n\nit('adds', () => {\n  expect(total(cart)).toBe(110);\n});\n";
const PY_TEST = 'from shop.cart import total\n\ndef test_total():\n    assert total(cart) == 110\n';
const JAVA_TEST =
  'class CartTest {\n  @Test void total() {\n    Prices prices = mock(Prices.class);\n    assertEquals(110, new Cart(prices).total());\n  }\n}\n';

describe('lazy.mock_unit_under_test', () => {
  it.each([
    ['src/cart.test.ts', TS_TEST, TS_TEST.replace('\nit(', "\nvi.mock('./cart');\n\nit("), 4],
    [
      'src/cart.spec.js',
      TS_TEST,
      TS_TEST.replace('\nit(', "\njest.mock('./cart.js', () => ({ total: () => 110 }));\n\nit("),
      4,
    ],
    [
      'tests/test_cart.py',
      PY_TEST,
      PY_TEST.replace('\ndef test_total', "\n@patch('shop.cart.total', return_value=110)\ndef test_total"),
      3,
    ],
    [
      'src/test/java/CartTest.java',
      JAVA_TEST,
      JAVA_TEST.replace(
        'assertEquals(110, new Cart(prices).total());',
        'Cart cart = mock(Cart.class);\n    assertEquals(110, cart.total());',
      ),
      4,
    ],
    [
      'CartTest.java',
      JAVA_TEST,
      JAVA_TEST.replace('class CartTest {\n', 'class CartTest {\n  @Mock\n  private Cart cart;\n'),
      3,
    ],
  ] as const)('flags %s mocking its own subject', async (path, before, after, line) => {
    const findings = await detect(path, before, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line, severity: 'high', confidence: 0.9 });
  });

  it('flags patch.object on the module under test for the function the test calls', async () => {
    const before = 'from shop import cart\n\ndef test_total():\n    assert cart.total(c) == 110\n';
    const after =
      "from shop import cart\n\n@patch.object(cart, 'total', return_value=110)\ndef test_total(_):\n    assert cart.total(c) == 110\n";
    const findings = await detect('tests/test_cart.py', before, after);
    expect(findings.map((f) => f.line)).toEqual([3]);
    const dependency =
      "from shop import cart\n\n@patch.object(cart, 'requests')\ndef test_total(_):\n    assert cart.total(c) == 110\n";
    expect(await detect('tests/test_cart.py', before, dependency)).toEqual([]);
  });

  it('gives a partial mock that keeps the real module a confidence a person should check', async () => {
    const after = TS_TEST.replace(
      '\nit(',
      "\nvi.mock('./cart', async (importOriginal) => ({ ...(await importOriginal()), audit: vi.fn() }));\n\nit(",
    );
    const findings = await detect('src/cart.test.ts', TS_TEST, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThan(0.7);
  });

  it.each([
    [
      'a mock of a dependency',
      'src/cart.test.ts',
      TS_TEST,
      TS_TEST.replace('\nit(', "\nvi.mock('./prices');\n\nit("),
    ],
    [
      'a mock that was already there',
      'src/cart.test.ts',
      `vi.mock('./cart');\n${TS_TEST}`,
      `vi.mock('./cart');\n${TS_TEST}\n`,
    ],
    [
      'a patch of what the unit calls',
      'tests/test_cart.py',
      PY_TEST,
      PY_TEST.replace('\ndef test_total', "\n@patch('shop.cart.requests')\ndef test_total"),
    ],
    [
      'a Mockito mock of a collaborator',
      'CartTest.java',
      JAVA_TEST.replace('    Prices prices = mock(Prices.class);\n', ''),
      JAVA_TEST,
    ],
    ['a mock in a file that is not a test', 'src/cart.ts', 'export {};\n', "vi.mock('./cart');\n"],
  ] as const)('does not flag %s', async (_, path, before, after) => {
    expect(await detect(path, before, after)).toEqual([]);
  });
});
