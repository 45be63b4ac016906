import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repetitionNesting } from './policy-regex.js';

describe('repetitionNesting', () => {
  it.each([
    ['abc', 0],
    ['a?b{0,1}c{3}', 0],
    ['^[a-z]+$', 1],
    ['(a|b)*', 1],
    ['a{2,}', 1],
    ['(?:ab)+c*', 1],
    ['(a+)+', 2],
    ['^(a+)+$', 2],
    ['(\\w+\\s?)*', 2],
    ['((a)+)+', 2],
    ['((a+)b)+', 2],
    ['(x(y(z+)+)+)+', 4],
    ['[(+*]+', 1],
    ['\\(a+\\)+', 1],
    ['(?<name>a+){2,5}', 2],
  ])('%s nests repetitions %i deep', (pattern, depth) => {
    expect(repetitionNesting(pattern)).toBe(depth);
  });

  it('counts exactly the repeated groups wrapped around a repetition, whatever surrounds them', () => {
    const filler = fc.constantFrom('', 'b', '\\+', '[+*()]', 'c?', 'd{0,1}', '\\(', '.');
    const repeat = fc.constantFrom('+', '*', '{2,}', '{1,9}', '+?');
    const nest = fc.array(fc.tuple(filler, filler, repeat), { maxLength: 5 });
    fc.assert(
      fc.property(nest, repeat, (levels, inner) => {
        const pattern = levels.reduce((p, [before, after, r]) => `(${before}${p}${after})${r}`, `a${inner}`);
        expect(repetitionNesting(pattern)).toBe(levels.length + 1);
      }),
    );
  });
});
