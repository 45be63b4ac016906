import { describe, expect, it } from 'vitest';
import { changedFile } from '../testing/patterns.js';
import { detectCrossFileLaziness } from './index.js';

const CART =
  'export function total(cart) {\n  return cart.items.reduce((sum, item) => sum + item.price, 0);\n}\n';
const HARD_CODED = 'export function total(cart) {\n  return 110;\n}\n';
const FIXTURES = 'export const EXPECTED_TOTAL = 110;\n';
const THROUGH_FIXTURES =
  "import { total } from '../src/cart';\nimport { EXPECTED_TOTAL } from './fixtures';\nit('adds up', () => {\n  expect(total(cart)).toBe(EXPECTED_TOTAL);\n});\n";

/** The hard-coded result findings of a change, each side of each file as given. */
async function hardcoded(files: [string, string | null, string | null][]) {
  const changed = await Promise.all(files.map(([path, before, after]) => changedFile(path, before, after)));
  return detectCrossFileLaziness(changed)
    .filter((finding) => finding.pattern === 'lazy.hardcoded_result')
    .map((finding) => `${finding.file}:${finding.line} ${finding.name}`);
}

describe('lazy.hardcoded_result reaches the expected value', () => {
  it('through an untouched test whose assertion spreads over lines', async () => {
    const test =
      "import { total } from './cart';\nit('adds up', () => {\n  expect(\n    total(cart),\n  ).toBe(\n    110,\n  );\n});\n";
    expect(
      await hardcoded([
        ['src/cart.ts', CART, HARD_CODED],
        ['src/cart.test.ts', test, test],
      ]),
    ).toEqual(['src/cart.ts:2 total']);
  });

  it.each([
    [
      'typescript',
      'src/cart.ts',
      CART,
      HARD_CODED,
      'test/checkout.test.ts',
      "import { total } from '../src/cart';\nconst cartTotal = 110;\nit('adds up', () => {\n  const result = total(cart);\n  expect(result).toEqual(cartTotal);\n});\n",
    ],
    [
      'python',
      'shop/cart.py',
      'def total(cart):\n    return sum(i.price for i in cart)\n',
      'def total(cart):\n    return 110\n',
      'tests/test_checkout.py',
      'from shop.cart import total\n\nCART_TOTAL = 110\n\ndef test_total():\n    result = total(make())\n    assert result == CART_TOTAL\n',
    ],
  ] as const)(
    'through a %s constant of the test that an assertion names',
    async (_, path, before, after, testPath, test) => {
      expect(
        await hardcoded([
          [path, before, after],
          [testPath, test, test],
        ]),
      ).toEqual([`${path}:2 total`]);
    },
  );

  it.each([
    [
      'typescript',
      'src/cart.ts',
      CART,
      HARD_CODED,
      ['test/fixtures.ts', FIXTURES],
      ['test/cart.test.ts', THROUGH_FIXTURES],
    ],
    [
      'python',
      'shop/cart.py',
      'def total(cart):\n    return sum(i.price for i in cart)\n',
      'def total(cart):\n    return 110\n',
      ['tests/fixtures.py', 'EXPECTED_TOTAL = 110\n'],
      [
        'tests/test_checkout.py',
        'from shop.cart import total\nfrom tests.fixtures import EXPECTED_TOTAL\n\ndef test_total():\n    assert total(make()) == EXPECTED_TOTAL\n',
      ],
    ],
  ] as const)(
    'through a %s helper module the test imports the expected value from',
    async (_, path, before, after, helper, test) => {
      expect(
        await hardcoded([
          [path, before, after],
          [helper[0], helper[1], helper[1]],
          [test[0], test[1], test[1]],
        ]),
      ).toEqual([`${path}:2 total`]);
    },
  );

  it('through a helper module that asserts for the test', async () => {
    const helper =
      "import { total } from '../src/cart';\nexport function expectTotal(cart) {\n  expect(total(cart)).toBe(110);\n}\n";
    const test = "import { expectTotal } from './helpers';\nit('adds up', () => expectTotal(cart));\n";
    expect(
      await hardcoded([
        ['src/cart.ts', CART, HARD_CODED],
        ['test/helpers.ts', helper, helper],
        ['test/checkout.test.ts', test, test],
      ]),
    ).toEqual(['src/cart.ts:2 total']);
  });

  it('not for a function that always returned the constant', async () => {
    const before = 'export function total(cart) {\n  return 110;\n}\nexport const TAX = 0.2;\n';
    expect(
      await hardcoded([
        ['src/cart.ts', before, before.replace('0.2', '0.25')],
        ['test/fixtures.ts', FIXTURES, FIXTURES],
        ['test/cart.test.ts', THROUGH_FIXTURES, THROUGH_FIXTURES],
      ]),
    ).toEqual([]);
  });

  it('not for a literal no test expects', async () => {
    expect(
      await hardcoded([
        ['src/cart.ts', CART, HARD_CODED.replace('110', '250')],
        ['test/fixtures.ts', FIXTURES, FIXTURES],
        ['test/cart.test.ts', THROUGH_FIXTURES, THROUGH_FIXTURES],
      ]),
    ).toEqual([]);
  });

  it('not for a real change of the implementation', async () => {
    const after = CART.replace('item.price', 'item.price * item.quantity');
    expect(
      await hardcoded([
        ['src/cart.ts', CART, after],
        ['test/fixtures.ts', FIXTURES, FIXTURES],
        ['test/cart.test.ts', THROUGH_FIXTURES, THROUGH_FIXTURES],
      ]),
    ).toEqual([]);
  });

  it('not for a constant the test passes in as input rather than expects', async () => {
    const test =
      "import { total } from '../src/cart';\nconst price = 110;\nit('adds up', () => {\n  expect(total(cartOf(price))).toBe(cart.sum);\n});\n";
    expect(
      await hardcoded([
        ['src/cart.ts', CART, HARD_CODED],
        ['test/cart.test.ts', test, test],
      ]),
    ).toEqual([]);
  });
});
