import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** The test findings of a one-file change as `kind severity name`, sorted. */
async function testFindings(path: string, before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings
    .filter((item) => item.kind.startsWith('test_') || item.kind.startsWith('assertion_'))
    .map((item) => `${item.kind} ${item.severity} ${item.name ?? ''}`)
    .sort();
}

const pyTest = (name: string, expected: string) =>
  `from shop import build_request\n\n\ndef ${name}():\n    request = build_request("GET", "http://shop.test")\n    request.prepare()\n    assert request.headers == [${expected}]\n`;

const jsTest = (name: string, call: string, assertion: string) =>
  `import { describe, expect, it } from 'vitest';\nimport { ${call} } from './shop.js';\n\ndescribe('shop', () => {\n  it('${name}', () => {\n    const cart = { items: [1, 2, 3], coupon: null };\n    ${assertion}\n  });\n});\n`;

describe('tests renamed and rewritten at once', () => {
  it('reports a test renamed to a name sharing no word with the old one, whose assertion now expects something else', async () => {
    expect(
      await testFindings(
        'tests/test_request.py',
        pyTest('test_host_header', '("host", "shop.test"), ("accept", "*/*")'),
        pyTest('test_no_content', '("accept", "*/*")'),
      ),
    ).toEqual(['test_removed high test_host_header']);
  });

  it('reports the same in a JavaScript suite', async () => {
    expect(
      await testFindings(
        'src/shop.test.ts',
        jsTest('applies the coupon', 'total', 'expect(total(cart)).toBe(5);'),
        jsTest('ignores an empty basket', 'total', 'expect(total(cart)).toBe(6);'),
      ),
    ).toEqual(['test_removed high shop > applies the coupon']);
  });

  it.each([
    [
      'renamed along with the code it tests',
      jsTest('sums the items', 'total', 'expect(total(cart)).toBe(6);'),
      jsTest('adds up everything', 'sum', 'expect(sum(cart)).toBe(6);'),
      'sums the items',
    ],
    [
      'renamed with words added, its expected value changed',
      jsTest('sums the items', 'total', 'expect(total(cart)).toBe(6);'),
      jsTest('sums the items without a coupon', 'total', 'expect(total(cart)).toBe(7);'),
      'sums the items',
    ],
    [
      'renamed, its assertion made stronger',
      jsTest('applies the coupon', 'total', 'expect(total(cart)).toBeTruthy();'),
      jsTest('ignores an empty basket', 'total', 'expect(total(cart)).toBe(6);'),
      'applies the coupon',
    ],
  ])('does not report a test %s', async (_name, before, after, old) => {
    expect(await testFindings('src/shop.test.ts', before, after)).toEqual([
      `test_replaced low shop > ${old}`,
    ]);
  });
});
