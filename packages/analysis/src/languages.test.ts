import { describe, expect, it } from 'vitest';
import { languageOf, parseSource } from './languages.js';

describe('languages', () => {
  it('knows each supported language by its extension, and the rest as other', () => {
    expect(['a.ts', 'b.tsx', 'c.mjs', 'd.py', 'e.go', 'F.java', 'g.rs', 'h.rb'].map(languageOf)).toEqual([
      'typescript',
      'tsx',
      'javascript',
      'python',
      'go',
      'java',
      'rust',
      'other',
    ]);
  });

  it('parses each language with its grammar, and fragments with errors marked', async () => {
    const samples = {
      typescript: 'it("a", () => { expect(1).toBe(1); });',
      python: 'def test_a():\n    assert x == 1\n',
      go: 'package a\nfunc TestA(t *testing.T) { t.Skip() }\n',
      java: 'class A { @Test void a() { assertEquals(1, 1); } }',
      rust: '#[test]\nfn a() { assert_eq!(1, 1); }\n',
    } as const;
    for (const [id, text] of Object.entries(samples)) {
      const tree = await parseSource(id as keyof typeof samples, text);
      expect(tree?.rootNode.hasError, id).toBe(false);
    }
    const fragment = await parseSource('typescript', '  expect(a).toBe(1);\n  });\n');
    expect(fragment?.rootNode.hasError).toBe(true);
    expect(await parseSource('other', 'anything')).toBeNull();
  });
});
