import { describe, expect, it } from 'vitest';
import { learnedConfidence, normaliseSnippet, snippetOf, tokenJaccard } from './learning.js';

const example = `try {
  await writeCache(key, value);
} catch (error) {
  // the cache is best effort
}`;

describe('learning from confirmed false positives', () => {
  it('normalises layout away', () => {
    expect(normaliseSnippet('a  =\n\tb(1);')).toBe('a = b ( 1 ) ;');
  });

  it('measures token-set similarity', () => {
    expect(tokenJaccard('a b c d', 'a b c d')).toBe(1);
    expect(tokenJaccard('a b', 'c d')).toBe(0);
    expect(tokenJaccard('a b c', 'a b d')).toBeCloseTo(0.5);
  });

  it('halves the confidence of a finding like a confirmed example, sending it under 0.7', () => {
    const similar = example.replace('writeCache', 'writeCacheEntry').replace('  //', '    //');
    expect(tokenJaccard(similar, example)).toBeGreaterThanOrEqual(0.8);
    expect(learnedConfidence(0.9, normaliseSnippet(similar), [normaliseSnippet(example)])).toBeCloseTo(0.45);
  });

  it('leaves a finding unlike every example as it was', () => {
    const different = 'try { await chargeCard(order.total) } catch (e) { }';
    expect(learnedConfidence(0.9, normaliseSnippet(different), [normaliseSnippet(example)])).toBe(0.9);
    expect(learnedConfidence(0.9, '', [''])).toBe(0.9);
  });

  it('takes the snippet around the finding from the file after the change', () => {
    const after = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7'].join('\n');
    const files = [{ path: 'a.ts', before: null, after }];
    expect(snippetOf(files, { file: 'a.ts', line: 4, kind: 'laziness' })).toBe('l2 l3 l4 l5 l6');
    expect(snippetOf(files, { file: 'b.ts', line: 4, kind: 'laziness' })).toBe('');
  });
});
