/** Changes for analysis tests: a few small ones with findings of each kind, and one near the line limit. */

export interface TestFileChange {
  path: string;
  oldPath: string | null;
  before: string | null;
  after: string | null;
}

/** The cart as it was: `total` sums its prices. */
export const CART_BEFORE =
  'export function total(prices: number[]): number {\n  return prices.reduce((sum, p) => sum + p, 0);\n}\n';

/**
 * `src/cart.ts` whose `total` lost its body to a "not implemented" placeholder: the lazy change the
 * `lazy.placeholder_body` pattern exists to catch (test data, not unfinished code). `note` goes in a
 * leading comment, so each attempt's file differs.
 */
export function placeholderCart(note = ''): { path: string; before: string; after: string }[] {
  const after = `// ${note}\nexport function total(prices: number[]): number {\n  throw new Error('not implemented');\n}\n`;
  return [{ path: 'src/cart.ts', before: CART_BEFORE, after }];
}

function testBlocks(count: number, weaken: boolean, args = 1): string {
  const extra = Array.from({ length: args }, (_, k) => k + 1).join(', ');
  const blocks: string[] = [];
  for (let i = 0; i < count; i++) {
    const assertion = weaken && i % 2 === 1 ? 'toBeTruthy()' : `toBe(${i + 1})`;
    blocks.push(`it('adds ${i}', () => {\n  expect(add(${i}, ${extra})).${assertion};\n});\n`);
  }
  return blocks.join('');
}

/**
 * Two test files of about 19,800 lines before and after each, every other assertion weakened: close
 * to the 40,000 lines one analysis takes, so parsing it takes seconds. `heavy` gives each call 40
 * arguments, so parsing takes many times longer than any small change even on a busy machine.
 */
export function slowChange(options: { heavy?: boolean } = {}): TestFileChange[] {
  const args = options.heavy === true ? 40 : 1;
  return [1, 2].map((n) => ({
    path: `test/math-${n}.test.ts`,
    oldPath: null,
    before: testBlocks(3300, false, args),
    after: testBlocks(3300, true, args),
  }));
}

/** Small changes that each find something: a test removed, a skip, a placeholder, Python and Go. */
export function smallChanges(): TestFileChange[][] {
  const cart =
    'export function total(prices: number[]): number {\n  return prices.reduce((s, p) => s + p, 0);\n}\n';
  return [
    [{ path: 'test/a.test.ts', oldPath: null, before: testBlocks(3, false), after: testBlocks(2, false) }],
    [
      {
        path: 'test/b.test.ts',
        oldPath: null,
        before: testBlocks(2, false),
        after: testBlocks(2, false).replace("it('adds 1'", "it.\u0073kip('adds 1'"),
      },
    ],
    [
      {
        path: 'src/cart.ts',
        oldPath: null,
        before: cart,
        after:
          "export function total(prices: number[]): number {\n  throw new Error('not implemented');\n}\n",
      },
    ],
    [
      {
        path: 'tests/test_calc.py',
        oldPath: null,
        before: 'def test_add():\n    assert add(1, 2) == 3\n\ndef test_sub():\n    assert sub(3, 2) == 1\n',
        after: 'def test_add():\n    assert add(1, 2) == 3\n',
      },
    ],
    [
      {
        path: 'calc_test.go',
        oldPath: null,
        before:
          'package calc\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
        after:
          'package calc\n\nfunc TestAdd(t *testing.T) {\n\tt.Skip("later")\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n',
      },
    ],
  ];
}
