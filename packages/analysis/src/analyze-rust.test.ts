import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import type { FileChange } from './types.js';

/** The findings of a change as `kind severity name`, sorted, test additions left out. */
async function findingsOf(...files: FileChange[]): Promise<string[]> {
  const { findings } = await analyzeChange({ files });
  return findings
    .filter((item) => item.kind !== 'test_added')
    .map((item) => `${item.kind} ${item.severity} ${item.name ?? ''}`)
    .sort();
}

const twoTests = (attribute: string) =>
  `use geo::area;\n\n${attribute}\nfn square() {\n    assert_eq!(area(2, 2), 4);\n}\n\n${attribute}\nfn line() {\n    assert_eq!(area(0, 2), 0);\n}\n`;
const oneTest = (attribute: string) =>
  `use geo::area;\n\n${attribute}\nfn square() {\n    assert_eq!(area(2, 2), 4);\n}\n`;

describe('Rust tests', () => {
  it.each([
    '#[test]',
    '#[wasm_bindgen_test]',
    '#[wasm_bindgen_test::wasm_bindgen_test]',
    '#[tokio::test]',
    '#[tokio::test(flavor = "multi_thread")]',
    '#[async_std::test]',
    '#[test_case(2 ; "two")]',
    '#[rstest]',
    '#[test_log::test]',
  ])('counts a function marked %s as a test', async (attribute) => {
    expect(
      await findingsOf({ path: 'tests/area.rs', before: twoTests(attribute), after: oneTest(attribute) }),
    ).toEqual(['test_removed high line']);
  });

  it('counts the tests of a deleted wasm-bindgen test crate as removed, not its exported functions', async () => {
    const before =
      '#[wasm_bindgen]\npub fn area_of(side: u32) -> u32 {\n    side * side\n}\n\npub mod tests {\n    use wasm_bindgen_test::*;\n\n    #[wasm_bindgen_test]\n    fn area_of() {\n        let _ = super::area_of(2);\n    }\n}\n';
    expect(await findingsOf({ path: 'tests/wasm/src/lib.rs', before, after: null })).toEqual([
      'test_removed high tests::area_of',
    ]);
  });

  it('does not count attributes that only mention tests as tests', async () => {
    const before =
      '#[cfg(test)]\nfn fixture() -> u32 {\n    2\n}\n\n#[cfg_attr(test, derive(Debug))]\nstruct Shape;\n\n#[wasm_bindgen]\nfn area() -> u32 {\n    4\n}\n';
    expect(await findingsOf({ path: 'src/shape.rs', before, after: '' })).toEqual([]);
  });

  it.each([
    ['a helper method', '    te.assert_output(&["a"], "a.txt");\n'],
    ['a helper function', '    assert_area(0, 2, 0);\n'],
    ['an assert_cmd chain', '    cmd.arg("a").assert().success();\n'],
  ])('reports an assertion made through %s and deleted from a test that stays', async (_name, removed) => {
    const test = (extra: string) =>
      `#[test]\nfn finds() {\n    let te = TestEnv::new();\n    te.assert_output(&["b"], "b.txt");\n${extra}}\n`;
    expect(await findingsOf({ path: 'tests/tests.rs', before: test(removed), after: test('') })).toEqual([
      'assertion_removed high finds',
    ]);
  });

  it('does not report a helper assertion that only moved within its test', async () => {
    const before =
      '#[test]\nfn finds() {\n    te.assert_output(&["a"], "a.txt");\n    te.assert_output(&["b"], "b.txt");\n}\n';
    const after =
      '#[test]\nfn finds() {\n    te.assert_output(&["b"], "b.txt");\n    te.assert_output(&["a"], "a.txt");\n}\n';
    expect(await findingsOf({ path: 'tests/tests.rs', before, after })).toEqual([]);
  });

  it('reads a source file with unit tests beside its code as source: its public items are API', async () => {
    const file = (name: string) =>
      `pub struct ${name};\n\nimpl ${name} {\n    pub fn sample(&self) -> f64 {\n        1.0\n    }\n}\n\n#[cfg(test)]\nmod test {\n    use super::*;\n\n    #[test]\n    fn samples() {\n        assert_eq!(${name}.sample(), 1.0);\n    }\n}\n`;
    expect(
      await findingsOf({ path: 'src/sphere.rs', before: file('SphereSurface'), after: file('Sphere') }),
    ).toEqual(['export_removed high SphereSurface', 'export_removed medium SphereSurface::sample']);
  });

  it('still reads a file of tests as tests: its public helpers are not API', async () => {
    const file = (helper: string) =>
      `pub fn ${helper}() -> Shape {\n    Shape::default()\n}\n\n#[test]\nfn valid() {\n    assert!(${helper}().is_valid());\n}\n`;
    expect(await findingsOf({ path: 'src/checks.rs', before: file('fixture'), after: file('make') })).toEqual(
      [],
    );
  });

  it('reads a source file that declares a public type as source, though a test sits beside its impl', async () => {
    const file = (methods: string) =>
      `pub struct Header(String);\n\nimpl Header {\n    pub fn as_str(&self) -> &str {\n        &self.0\n    }\n${methods}}\n\n#[test]\nfn reads_back() {\n    assert_eq!(Header("a".into()).as_str(), "a");\n}\n`;
    const before = file(
      '\n    pub fn try_from_str(s: &str) -> Option<Header> {\n        Some(Header(s.into()))\n    }\n',
    );
    expect(await findingsOf({ path: 'src/header.rs', before, after: file('') })).toEqual([
      'export_removed medium Header::try_from_str',
    ]);
  });

  it('reads a module compiled for tests under a combined cfg (all(test, loom)) as tests beside the code', async () => {
    const file = (methods: string) =>
      `pub fn size() -> usize {\n    1\n}\n${methods}\n#[cfg(all(test, loom))]\nmod fuzz {\n    #[test]\n    fn sized() {\n        assert_eq!(super::size(), 1);\n    }\n}\n`;
    const before = file('\npub fn make_mut() -> usize {\n    2\n}\n');
    expect(await findingsOf({ path: 'src/bytes.rs', before, after: file('') })).toEqual([
      'export_removed medium make_mut',
    ]);
  });
});
