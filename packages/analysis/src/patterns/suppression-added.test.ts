import { describe, expect, it } from 'vitest';
import { findingsOf } from '../testing/patterns.js';
import type { LanguageId } from '../types.js';

const detect = (language: LanguageId, path: string, before: string | null, after: string) =>
  findingsOf('lazy.suppression_added', { language, path, before, after });

describe('lazy.suppression_added', () => {
  it.each([
    [
      'typescript',
      'a.ts',
      'const n: number = read();\n',
      '// @ts-ignore\nconst n: number = read();\n',
      '@ts-ignore',
      'high',
    ],
    [
      'typescript',
      'a.ts',
      'const n: number = read();\n',
      '// @ts-expect-error wrong type\nconst n: number = read();\n',
      '@ts-expect-error',
      'high',
    ],
    ['typescript', 'a.ts', 'const n = 1;\n', '// @ts-nocheck\nconst n = 1;\n', '@ts-nocheck', 'high'],
    [
      'typescript',
      'a.ts',
      'f(x);\n',
      '// eslint-disable-next-line no-console\nf(x);\n',
      'eslint-disable-next-line',
      'medium',
    ],
    [
      'typescript',
      'a.ts',
      'f(x);\n',
      '// biome-ignore lint/suspicious/noExplicitAny: later\nf(x);\n',
      'biome-ignore',
      'medium',
    ],
    ['typescript', 'a.ts', 'const c = read(x);\n', 'const c = read(x as any);\n', 'as any', 'high'],
    [
      'tsx',
      'a.tsx',
      'const c = <A x={y} />;\n',
      'const c = <A x={y as unknown as B} />;\n',
      'as unknown as',
      'high',
    ],
    [
      'python',
      'a.py',
      'total = compute(cart)\n',
      'total = compute(cart)  # type: ignore\n',
      'type: ignore',
      'high',
    ],
    ['python', 'a.py', 'import os\n', 'import os  # noqa: F401\n', 'noqa', 'medium'],
    [
      'python',
      'a.py',
      'def f():\n    return 1\n',
      '# pylint: disable=all\ndef f():\n    return 1\n',
      'pylint: disable',
      'medium',
    ],
    [
      'go',
      'a.go',
      'package a\nfunc F() { g() }\n',
      'package a\nfunc F() { g() } //nolint:errcheck\n',
      'nolint',
      'medium',
    ],
    [
      'java',
      'A.java',
      'class A { List<String> f(Object o) { return (List<String>) o; } }',
      'class A { @SuppressWarnings("unchecked") List<String> f(Object o) { return (List<String>) o; } }',
      '@SuppressWarnings',
      'medium',
    ],
    [
      'rust',
      'a.rs',
      'fn f() { g(); }\n',
      '#[allow(unused_must_use)]\nfn f() { g(); }\n',
      '#[allow(unused_must_use)]',
      'medium',
    ],
  ] as const)('flags %s %s: %s', async (language, path, before, after, directive, severity) => {
    const findings = await detect(language, path, before, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'laziness', severity, confidence: 0.9 });
    expect(findings[0]?.message).toContain(directive);
  });

  it('reports a type-check suppression in a test file at medium, where it builds invalid input on purpose', async () => {
    const after = '// @ts-expect-error the wrong type on purpose\nparse(42);\n';
    const findings = await detect('typescript', 'a.test.ts', 'parse("42");\n', after);
    expect(findings.map((f) => f.severity)).toEqual(['medium']);
  });

  it.each([
    [
      'rust',
      'lib.rs',
      '#![allow(clippy::a, clippy::b)]\nuse std::env;\n',
      '#![allow(\n    clippy::a,\n    clippy::b,\n    clippy::c, // see issue\n)]\nuse std::env;\n',
      'clippy::c',
    ],
    ['python', 'a.py', 'import os  # noqa: F401\n', 'import os  # noqa: F401, E501\n', 'E501'],
    [
      'typescript',
      'a.ts',
      '// eslint-disable-next-line no-console\nf();\n',
      '// eslint-disable-next-line no-console, no-alert\nf();\n',
      'no-alert',
    ],
    [
      'java',
      'A.java',
      'class A { @SuppressWarnings("unchecked") void f() {} }',
      'class A { @SuppressWarnings({"unchecked", "rawtypes"}) void f() {} }',
      'rawtypes',
    ],
  ] as const)(
    'names only the rule a %s directive newly silences',
    async (language, path, before, after, rule) => {
      const findings = await detect(language, path, before, after);
      expect(findings).toHaveLength(1);
      expect(findings[0]?.message).toMatch(new RegExp(`^adds \`${rule}\` to`));
    },
  );

  it('does not flag an allow list reformatted or with a rule taken out', async () => {
    const before = '#![allow(clippy::a, clippy::b)]\nuse std::env;\n';
    expect(
      await detect(
        'rust',
        'lib.rs',
        before,
        '#![allow(\n    clippy::b,\n    clippy::a,\n)]\nuse std::env;\n',
      ),
    ).toEqual([]);
    expect(await detect('rust', 'lib.rs', before, '#![allow(clippy::a)]\nuse std::env;\n')).toEqual([]);
  });

  it('points at the added suppression, not at one that was already there', async () => {
    const before = '// @ts-ignore\nconst a: number = x;\nconst b: number = y;\n';
    const after = '// @ts-ignore\nconst a: number = x;\n// @ts-ignore\nconst b: number = y;\n';
    const findings = await detect('typescript', 'a.ts', before, after);
    expect(findings.map((f) => f.line)).toEqual([3]);
  });

  it.each([
    [
      'an existing suppression kept while its line changed',
      'typescript',
      'a.ts',
      'function f() {\n  // @ts-ignore\n  return x.y;\n}\n',
      'function f() {\n  // @ts-ignore\n  return x.y.z;\n}\n',
    ],
    [
      'an existing suppression moved down by new code',
      'python',
      'a.py',
      'import os  # noqa\n',
      'import sys\n\nimport os  # noqa\n',
    ],
    ['a cast to a real type', 'typescript', 'a.ts', 'const a = x;\n', 'const a = x as Cart;\n'],
    ['a plain comment', 'go', 'a.go', 'package a\n', 'package a\n// Lint runs in CI.\n'],
    [
      'another annotation',
      'java',
      'A.java',
      'class A { void f() {} }',
      'class A { @Override public String toString() { return ""; } }',
    ],
    ['a derive attribute', 'rust', 'a.rs', 'struct A;\n', '#[derive(Debug)]\nstruct A;\n'],
  ] as const)('does not flag %s', async (_, language, path, before, after) => {
    expect(await detect(language, path, before, after)).toEqual([]);
  });

  it('reads suppressions in other languages by line, at lower confidence', async () => {
    const findings = await detect('other', 'a.rb', 'x = 1\n', 'x = 1 # rubocop:disable all\ny = 2 # noqa\n');
    expect(findings.map((f) => [f.line, f.confidence])).toEqual([
      [1, 0.55],
      [2, 0.55],
    ]);
  });
});
