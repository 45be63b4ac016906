import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../languages.js';
import { detectLaziness, LAZINESS_PATTERNS } from './index.js';

const doc = readFileSync(new URL('../../../../docs/laziness-patterns.md', import.meta.url), 'utf8');

describe('the laziness catalog', () => {
  it('lists each pattern once, with examples of the cut corner and the legitimate code', () => {
    const ids = LAZINESS_PATTERNS.map((pattern) => pattern.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const pattern of LAZINESS_PATTERNS) {
      expect(pattern.examples.length, pattern.id).toBeGreaterThan(0);
      for (const example of pattern.examples) expect(example.bad, pattern.id).not.toBe(example.good);
    }
  });

  it('is documented in docs/laziness-patterns.md with the same severities, and documents no other pattern', () => {
    for (const pattern of LAZINESS_PATTERNS) {
      expect(doc, pattern.id).toContain(`| \`${pattern.id}\` | ${pattern.severity} |`);
      expect(doc, pattern.id).toContain(`## \`${pattern.id}\`\n\n**Severity** ${pattern.severity}`);
    }
    const documented = new Set([...doc.matchAll(/`(lazy\.\w+)`/g)].map((match) => match[1]));
    expect([...documented].sort()).toEqual(LAZINESS_PATTERNS.map((pattern) => pattern.id).sort());
  });

  it("gives findings in a diff's fragments a lower confidence than in whole files", async () => {
    const before = 'function total(c) {\n  return sum(c);\n}\n';
    const after = "function total(c) {\n  throw new Error('not implemented');\n}\n";
    const context = {
      language: 'typescript' as const,
      before: await parseSource('typescript', before),
      after: await parseSource('typescript', after),
    };
    const whole = await detectLaziness({ path: 'a.ts', before, after }, context);
    const fragment = await detectLaziness({ path: 'a.ts', before, after, partial: true }, context);
    expect(whole.map((f) => f.confidence)).toEqual([0.9]);
    expect(fragment.map((f) => f.confidence)).toEqual([0.75]);
  });

  it('reports nothing for a deleted file', async () => {
    const before = '// @ts-ignore\nconst a = 1;\n';
    const context = {
      language: 'typescript' as const,
      before: await parseSource('typescript', before),
      after: null,
    };
    expect(await detectLaziness({ path: 'a.ts', before, after: null }, context)).toEqual([]);
  });
});
