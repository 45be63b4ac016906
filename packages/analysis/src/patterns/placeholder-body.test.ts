import { describe, expect, it } from 'vitest';
import { findingsOf } from '../testing/patterns.js';
import type { LanguageId } from '../types.js';

const detect = (language: LanguageId, path: string, before: string | null, after: string) =>
  findingsOf('lazy.placeholder_body', { language, path, before, after });

describe('lazy.placeholder_body', () => {
  it.each([
    [
      'typescript',
      'a.ts',
      'function total(c) {\n  return c.items.reduce((s, i) => s + i, 0);\n}\n',
      "function total(c) {\n  throw new Error('not implemented');\n}\n",
    ],
    [
      'javascript',
      'a.js',
      'class Cart {\n  total() { return this.items.length * 2; }\n}\n',
      "class Cart {\n  total() { throw new Error('TODO'); }\n}\n",
    ],
    [
      'python',
      'a.py',
      'def total(c):\n    return sum(c)\n',
      'def total(c):\n    raise NotImplementedError\n',
    ],
    ['python', 'a.py', 'def total(c):\n    return sum(c)\n', 'def total(c):\n    """Sum."""\n    pass\n'],
    [
      'go',
      'a.go',
      'package a\nfunc Total(c []int) int {\n\ts := 0\n\tfor _, v := range c { s += v }\n\treturn s\n}\n',
      'package a\nfunc Total(c []int) int {\n\tpanic("not implemented")\n}\n',
    ],
    [
      'java',
      'A.java',
      'class A { int total(int[] c) { return c.length; } }',
      'class A { int total(int[] c) { throw new UnsupportedOperationException(); } }',
    ],
    [
      'rust',
      'a.rs',
      'fn total(c: &[u32]) -> u32 {\n    c.iter().sum()\n}\n',
      'fn total(c: &[u32]) -> u32 {\n    todo!()\n}\n',
    ],
    [
      'rust',
      'a.rs',
      'fn total(c: &[u32]) -> u32 {\n    c.iter().sum()\n}\n',
      'fn total(c: &[u32]) -> u32 {\n    unimplemented!("later")\n}\n',
    ],
  ] as const)('flags a %s function whose body became a stub (%s)', async (language, path, before, after) => {
    const findings = await detect(language, path, before, after);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'laziness', severity: 'high', file: path, confidence: 0.9 });
    expect(findings[0]?.name).toMatch(/total/i);
  });

  it('flags a body reduced to return null at lower confidence', async () => {
    const findings = await detect(
      'typescript',
      'a.ts',
      'function find(id) {\n  const row = db.get(id);\n  return row ? map(row) : null;\n}\n',
      'function find(id) {\n  return null;\n}\n',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThan(0.7);
  });

  it('flags code replaced by a TODO comment', async () => {
    const findings = await detect(
      'python',
      'a.py',
      'def save(x):\n    check(x)\n    write(x)\n    return x\n',
      'def save(x):\n    # TODO: validate and write\n    return x\n',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain('TODO');
  });

  it('flags a new function added as an explicit stub', async () => {
    const findings = await detect(
      'rust',
      'a.rs',
      'fn a() {}\n',
      'fn a() {}\nfn b() -> u32 {\n    todo!()\n}\n',
    );
    expect(findings.map((f) => f.name)).toEqual(['b']);
    expect(findings[0]?.line).toBe(2);
  });

  it('gives a new method that raises NotImplementedError, often a base class design, a confidence a person should check', async () => {
    const findings = await detect(
      'python',
      'a.py',
      'class Base:\n    pass\n',
      'class Base:\n    def close(self):\n        raise NotImplementedError\n',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.confidence).toBeLessThanOrEqual(0.6);
  });

  it.each([
    [
      'typing overloads beside the real function',
      'python',
      'a.py',
      'def get(self, key, default=None):\n    return self.d.get(key, default)\n',
      '@overload\ndef get(self, key: str) -> V | None: ...\n\n@overload\ndef get(self, key: str, default: D) -> V | D: ...\n\ndef get(self, key, default=None):\n    return self.d.get(key, default)\n',
    ],
    [
      'an abstract method that was already pass',
      'python',
      'a.py',
      'class A:\n    @abstractmethod\n    def f(self):\n        pass\n',
      'class A:\n    @abstractmethod\n    def f(self):\n        """Doc."""\n        pass\n',
    ],
    [
      'a new abstract method',
      'python',
      'a.py',
      'class A:\n    pass\n',
      'class A:\n    @abstractmethod\n    def f(self):\n        raise NotImplementedError\n',
    ],
    ['a new no-op function', 'go', 'a.go', 'package a\n', 'package a\nfunc (NoopLogger) Log(s string) {}\n'],
    [
      'a stub left unchanged while code around it moved',
      'typescript',
      'a.ts',
      "function a() { throw new Error('not implemented'); }\n",
      "\n\nfunction a() {\n  throw new Error('not implemented');\n}\n",
    ],
    [
      'a real rewrite',
      'java',
      'A.java',
      'class A { int f(int x) { return x + 1; } }',
      'class A { int f(int x) { int y = x; return y + 1; } }',
    ],
    [
      'a TODO added next to kept code',
      'typescript',
      'a.ts',
      'function f(x) {\n  check(x);\n  return x;\n}\n',
      'function f(x) {\n  check(x);\n  // TODO: cache\n  return x;\n}\n',
    ],
  ] as const)('does not flag %s', async (_, language, path, before, after) => {
    expect(await detect(language, path, before, after)).toEqual([]);
  });
});
