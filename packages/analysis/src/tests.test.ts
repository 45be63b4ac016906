import { describe, expect, it } from 'vitest';
import { parseSource } from './languages.js';
import { scanTests } from './tests.js';
import type { LanguageId } from './types.js';

async function scan(language: LanguageId, text: string) {
  return scanTests(language, await parseSource(language, text), text);
}

/** `key line skipped [strengths]` per test. */
async function summary(language: LanguageId, text: string): Promise<string[]> {
  const { tests } = await scan(language, text);
  return tests.map(
    (test) =>
      `${test.key} ${test.line}${test.skipped ? ' skipped' : ''} [${test.assertions.map((a) => a.strength).join(',')}]`,
  );
}

describe('scanTests', () => {
  it('finds vitest/jest/mocha tests with their suites, skips and assertion strengths', async () => {
    const text = [
      "describe('cart', () => {",
      "  it('totals', () => {",
      '    expect(total()).toBe(3);',
      '    expect(total()).toBeDefined();',
      '  });',
      // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
      "  it.\u0073kip('discounts', () => {",
      '    assert.ok(discount());',
      '  });',
      "  test.each([1, 2])('case %i', (n) => {",
      '    expect(n).toBeGreaterThan(0);',
      '  });',
      "  it.\u0074odo('refunds');",
      '});',
    ].join('\n');
    expect(await summary('typescript', text)).toEqual([
      'cart > totals 2 [3,1]',
      'cart > discounts 6 skipped [1]',
      'cart > case %i 9 [1]',
      'cart > refunds 12 skipped []',
    ]);
    expect((await scan('typescript', text)).skips.map((skip) => skip.kind)).toEqual(['it.skip', 'it.todo']);
  });

  it('finds pytest and unittest tests, class keys, decorators and skip calls', async () => {
    const text = [
      'import pytest',
      '',
      '@pytest.mark.skipif(True, reason="x")',
      'def test_a():',
      '    assert a() == 1',
      '    assert a()',
      '',
      'class TestB:',
      '    def test_c(self):',
      '        pytest.skip("later")',
      '        self.assertEqual(c(), 2)',
      '',
      'class Helper:',
      '    def test_not_a_test(self):',
      '        pass',
    ].join('\n');
    expect(await summary('python', text)).toEqual(['test_a 3 skipped [3,1]', 'TestB.test_c 9 skipped [3]']);
  });

  it('finds Go tests and subtests, testify and t.Error assertions', async () => {
    const text = [
      'package a',
      'func TestA(t *testing.T) {',
      '\tif got := A(); got != 1 {',
      '\t\tt.Errorf("got %d", got)',
      '\t}',
      '\tt.Run("sub", func(t *testing.T) {',
      '\t\tt.Skip()',
      '\t\trequire.NoError(t, err)',
      '\t})',
      '}',
      'func helper(t *testing.T) {}',
    ].join('\n');
    expect(await summary('go', text)).toEqual(['TestA 2 [3]', 'TestA/sub 6 skipped [1]']);
    const suite =
      'package a\nfunc (s *CartSuite) TestTotal() {\n\ts.Equal(3, Total())\n}\nfunc (s *CartSuite) helper() {}\n';
    expect(await summary('go', suite)).toEqual(['CartSuite.TestTotal 2 [3]']);
  });

  it('finds JUnit tests with class keys and AssertJ chains, and Rust tests in modules', async () => {
    const java =
      'class ATest {\n  @Test @Disabled void a() {\n    assertThat(x).isEqualTo(1);\n    assertNotNull(y);\n  }\n  void helper() { assertTrue(z); }\n}';
    expect(await summary('java', java)).toEqual(['ATest.a 2 skipped [3,1]']);
    const rust =
      'mod tests {\n    #[test]\n    #[ignore]\n    fn a() {\n        assert_eq!(a(), 1);\n        assert!(b().is_ok());\n    }\n    fn helper() {}\n}';
    expect(await summary('rust', rust)).toEqual(['tests::a 2 skipped [3,1]']);
  });

  it('keeps assertions outside any test found as orphans, for a hunk that lost its test head', async () => {
    const fragment = '\n\n    expect(a).toBe(1);\n  });\n\n  it("b", () => {\n    expect(b).toBe(2);\n';
    const result = await scan('typescript', fragment);
    expect(result.orphanAssertions.map((a) => a.line)).toEqual([3]);
    expect(result.tests.map((test) => [test.name, test.line, test.byLine, test.assertions.length])).toEqual([
      ['b', 6, true, 1],
    ]);
  });

  it('reads other languages by line rules', async () => {
    const ruby =
      'describe Cart do\n  it "totals" do\n    expect(cart.total).to eq(3)\n  end\n  xit "refunds" do\n  end\nend\n';
    const result = await scan('other', ruby);
    expect(result.tests.map((test) => `${test.name} ${test.line} ${test.assertions.length}`)).toEqual([
      'totals 2 1',
    ]);
    expect(result.skips.map((skip) => `${skip.kind}@${skip.line}`)).toEqual(['xit@5']);
  });
});
