import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** The assertion and test findings of a one-file change as `kind severity name`, sorted. */
async function findingsOf(path: string, before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings
    .filter((item) => item.kind.startsWith('assertion_') || item.kind.startsWith('test_'))
    .map((item) => `${item.kind} ${item.severity} ${item.name ?? ''}`)
    .sort();
}

const js = (checks: string) =>
  `import { it } from 'vitest';\nimport { assertTotal } from './helpers.js';\n\nit('totals the cart', () => {\n  const cart = makeCart();\n${checks}});\n`;
const py = (checks: string) =>
  `from helpers import assert_total, make_cart\n\n\ndef test_totals_the_cart():\n    cart = make_cart()\n${checks}`;
const go = (checks: string) =>
  `package shop\n\nimport "testing"\n\nfunc TestTotals(t *testing.T) {\n\tcart := makeCart()\n${checks}}\n`;

describe('assertions made through helpers', () => {
  it.each([
    [
      'JavaScript',
      'src/cart.test.ts',
      js('  assertTotal(cart, 6);\n  assertTotal(cart.withCoupon(), 5);\n'),
      js('  assertTotal(cart, 6);\n'),
      'totals the cart',
    ],
    [
      'Python',
      'tests/test_cart.py',
      py('    assert_total(cart, 6)\n    assert_total(cart.with_coupon(), 5)\n'),
      py('    assert_total(cart, 6)\n'),
      'test_totals_the_cart',
    ],
    [
      'Go',
      'cart_test.go',
      go('\tassertTotal(t, cart, 6)\n\tassertTotal(t, cart.WithCoupon(), 5)\n'),
      go('\tassertTotal(t, cart, 6)\n'),
      'TestTotals',
    ],
  ])(
    'reports a %s helper assertion deleted from a test that stays',
    async (_language, path, before, after, test) => {
      expect(await findingsOf(path, before, after)).toEqual([`assertion_removed high ${test}`]);
    },
  );

  it.each([
    [
      'JavaScript',
      'src/cart.test.ts',
      js('  assertTotal(cart, 6);\n  setUp(cart);\n'),
      js('  assertTotal(cart, 6);\n'),
    ],
    [
      'Python',
      'tests/test_cart.py',
      py('    assert_total(cart, 6)\n    assertion_count(cart)\n'),
      py('    assert_total(cart, 6)\n'),
    ],
    [
      'Go',
      'cart_test.go',
      go('\tassertTotal(t, cart, 6)\n\tassertable(cart)\n'),
      go('\tassertTotal(t, cart, 6)\n'),
    ],
  ])('does not count other %s calls as assertions', async (_language, path, before, after) => {
    expect(await findingsOf(path, before, after)).toEqual([]);
  });
});
