import { describe, expect, it } from 'vitest';
import { chunkDocument } from './chunk.js';

const doc = (text: string) => chunkDocument({ path: 'a.md', source: 'file', ref: 'main', text });

describe('chunkDocument', () => {
  it('starts a chunk at each heading and keeps the line range', () => {
    const chunks = doc('# One\n\nfirst para\n\n# Two\nsecond\nthird\n');
    expect(chunks.map((chunk) => [chunk.lineStart, chunk.lineEnd])).toEqual([
      [1, 3],
      [5, 7],
    ]);
    expect(chunks[1]?.content).toBe('# Two\nsecond\nthird');
  });

  it('joins short paragraphs and cuts near 1.5 KB, never past 2 KB', () => {
    const paragraph = 'word '.repeat(60).trim();
    const chunks = doc(Array.from({ length: 40 }, () => paragraph).join('\n\n'));
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(2000);
    expect(chunks[0]?.content).toContain('\n\n');
  });

  it('cuts one long paragraph at line ends', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(30)}`);
    const chunks = doc(lines.join('\n'));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[1]?.lineStart).toBe((chunks[0]?.lineEnd ?? 0) + 1);
    expect(chunks.at(-1)?.lineEnd).toBe(200);
  });

  it('drops NULs and gives no chunk for blank text', () => {
    expect(doc('\n\n  \n')).toEqual([]);
    expect(doc('a\0b')[0]?.content).toBe('ab');
  });
});
