import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';

/** The laziness and skip findings of a one-file change, as `pattern name`. */
async function flaggedOf(path: string, before: string, after: string): Promise<string[]> {
  const { findings } = await analyzeChange({ files: [{ path, before, after }] });
  return findings
    .filter((item) => item.kind === 'laziness' || item.kind === 'skip_added')
    .map((item) => `${item.pattern} ${item.name ?? ''}`.trim());
}

const py = (body: string) => `import sys\n\nimport pytest\n\nfrom calc import add\n\n\n${body}\n`;
const TEST_ADD = 'def test_add():\n    assert add(1, 2) == 3\n';

describe('analyzeChange on code that cuts no corner', () => {
  it.each([
    ['an old Python version', '@pytest.mark.skipif(sys.version_info < (3, 10), reason="uses match")'],
    ['a platform', '@pytest.mark.skipif(sys.platform == "win32", reason="no fork")'],
    ['a Python version, with unittest', '@unittest.skipUnless(sys.version_info >= (3, 11), "needs tomllib")'],
  ])('does not call a new test skipped on %s a skip added', async (_name, marker) => {
    const after = py(`${TEST_ADD}\n\n${marker}\ndef test_add_matches():\n    assert add(2, 2) == 4\n`);
    expect(await flaggedOf('tests/test_calc.py', py(TEST_ADD), after)).toEqual([]);
  });

  it('still calls a version-conditional skip put on a test that was there a skip added', async () => {
    const marker = '@pytest.mark.skipif(sys.version_info < (3, 99), reason="flaky")\n';
    expect(await flaggedOf('tests/test_calc.py', py(TEST_ADD), py(`${marker}${TEST_ADD}`))).toEqual([
      'test.skip_added test_add',
    ]);
  });

  it('does not read a coverage exclusion as laziness', async () => {
    const before = 'def load(path):\n    return read(path)\n';
    const after =
      'from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:  # pragma: no cover\n    from io import Reader\n\n\ndef load(path):\n    return read(path)\n';
    expect(await flaggedOf('calc/load.py', before, after)).toEqual([]);
    for (const directive of ['/* istanbul ignore next */', '/* c8 ignore next */'])
      expect(await flaggedOf('src/a.js', 'f(x);\n', `${directive}\nf(x);\n`)).toEqual([]);
  });

  it('does not read a cast in a test as laziness, and still does in production code', async () => {
    const before = "it('reads', () => {\n  expect(read(input)).toBe(1);\n});\n";
    const after = "it('reads', () => {\n  expect(read(input as any)).toBe(1);\n});\n";
    expect(await flaggedOf('src/read.test.ts', before, after)).toEqual([]);
    expect(
      await flaggedOf(
        'src/read.ts',
        'export const n = read(input);\n',
        'export const n = read(input as any);\n',
      ),
    ).toEqual(['lazy.suppression_added']);
  });
});
