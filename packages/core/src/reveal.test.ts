import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsHiddenCharacters, revealHidden } from './reveal.js';
import { revealDeep } from './sanitize.js';

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('plain', 'a\u202eb', '👩\u200d💻', '\ufe0f\ufe0f', 'a\nb\tc', 'ok\u{e0041}'),
);

describe('containsHiddenCharacters', () => {
  it.each([
    ['a raw override in an argument', { command: 'echo safe\u202e && rm -rf ~' }, true],
    ['a tag character in a key', { ['path\u{e0041}']: 'a' }, true],
    ['a marker left by an earlier reveal', 'invoice_⟨U+202E⟩fdp.sh', true],
    ['deeply nested zero-width space', [{ a: [{ b: 'x\u200by' }] }], true],
    ['multi-line plain text', { diff: '-a\n+b\n\tc' }, false],
    ['numbers, booleans and null', [1, true, null], false],
  ])('answers for %s', (_name, value, expected) => {
    expect(containsHiddenCharacters(value)).toBe(expected);
  });

  it('finds a hidden character however deep it is nested, and survives cycles', () => {
    let deep: unknown = { path: 'a\u202eb' };
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(containsHiddenCharacters(deep)).toBe(true);
    const cyclic: Record<string, unknown> = { name: 'plain' };
    cyclic.self = cyclic;
    expect(containsHiddenCharacters(cyclic)).toBe(false);
  });

  it('is true exactly when revealing finds a hidden character in some string', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), (strings) => {
        const changed = strings.some((s) => revealHidden(s, { multiline: true }).hiddenCount > 0);
        expect(containsHiddenCharacters({ strings })).toBe(changed);
      }),
    );
  });
});

describe('revealDeep', () => {
  it('reveals strings and keys, keeping line breaks in values and dropping unsafe keys', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "no\u202ete": "a\\nb\u200b"}');
    expect(revealDeep(value)).toEqual({ 'no⟨U+202E⟩te': 'a\nb⟨U+200B⟩' });
  });
});
