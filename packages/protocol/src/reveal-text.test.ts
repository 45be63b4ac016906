import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HIDDEN_CHARACTER_MARKER, revealHidden, revealText } from './reveal-text.js';

const MARKERS = new RegExp(HIDDEN_CHARACTER_MARKER.source, 'g');

// Everything the reveal must never let through as itself, whatever its neighbours.
const ALWAYS_HIDDEN =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]/u;

const hiddenChar = fc.constantFrom(
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u{e0041}',
  '\u{e007f}',
  '\u{e0100}',
  '\x00',
  '\x1b',
  '\x07',
  '\x7f',
  '\x85',
  '\x9b',
  '\r',
);
const visibleChar = fc.constantFrom('a', 'Z', ' ', '.', '~', '/', 'é', 'ß', 'ж', '中', 'ا', '\n', '\t', '😀');
const fragment = fc.oneof(
  hiddenChar,
  visibleChar,
  fc.constantFrom('😀\ufe0f', '👩\u200d💻', '\ufe0f', '\ufe0f\ufe0f'),
);
const text = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));
const plainText = fc.array(visibleChar, { maxLength: 40 }).map((parts) => parts.join(''));

/** Puts each marker's character back: the inverse of revealing, for inputs holding no literal marker. */
function unreveal(revealed: string): string {
  return revealed.replace(MARKERS, (marker) =>
    String.fromCodePoint(Number.parseInt(marker.slice(3, -1), 16)),
  );
}

describe('revealText', () => {
  it.each([
    ['a right-to-left override in a file name', 'invoice_\u202efdp.sh', 'invoice_⟨U+202E⟩fdp.sh'],
    [
      'an override hiding the end of a command',
      'echo safe\u202e && rm -rf ~',
      'echo safe⟨U+202E⟩ && rm -rf ~',
    ],
    ['isolates and marks', '\u2066a\u2069\u200e\u200f\u061c', '⟨U+2066⟩a⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩'],
    [
      'zero-width characters',
      'a\u200bb\u200cc\u200dd\u2060e\ufefff',
      'a⟨U+200B⟩b⟨U+200C⟩c⟨U+200D⟩d⟨U+2060⟩e⟨U+FEFF⟩f',
    ],
    ['tag characters spelling hidden text', 'ok\u{e0069}\u{e0067}', 'ok⟨U+E0069⟩⟨U+E0067⟩'],
    ['a terminal escape', 'ok\x1b[31m red', 'ok⟨U+001B⟩[31m red'],
    ['C1 controls', 'a\x85b\x9bc', 'a⟨U+0085⟩b⟨U+009B⟩c'],
    ['a lone surrogate', 'a\ud800b', 'a⟨U+D800⟩b'],
    ['variation selectors smuggled after an emoji', '😀\ufe0f\ufe01\u{e0100}', '😀\ufe0f⟨U+FE01⟩⟨U+E0100⟩'],
    ['a variation selector with nothing to shape', ' \ufe0f', ' ⟨U+FE0F⟩'],
    ['line breaks and tabs on a one-line field', 'a\nb\tc', 'a⟨U+000A⟩b⟨U+0009⟩c'],
  ])('shows %s as markers', (_name, input, expected) => {
    expect(revealText(input)).toBe(expected);
  });

  it.each([
    ['emoji sequences', '👩‍💻 ❤️ 👍🏽 ❤️‍🔥'],
    ['accents and scripts', 'café Ελληνικά 中文 עברית العربية'],
    ['plain ASCII', 'rm -rf build'],
  ])('leaves %s as they are', (_name, input) => {
    expect(revealHidden(input)).toEqual({ text: input, hiddenCount: 0 });
  });

  it('keeps line breaks and tabs on a multi-line field, and reads a Windows line end as one line end', () => {
    expect(revealHidden('a\r\nb\tc\rd', { multiline: true })).toEqual({
      text: 'a\nb\tc⟨U+000D⟩d',
      hiddenCount: 1,
    });
  });

  it('reports how many hidden characters it found', () => {
    expect(revealHidden('invoice_\u202efdp.sh\u{e0041}').hiddenCount).toBe(2);
  });

  it('never lets a hidden character through', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (input, multiline) => {
        const { text: shown } = revealHidden(input, { multiline });
        expect(shown).not.toMatch(ALWAYS_HIDDEN);
        expect(revealHidden(shown, { multiline }).hiddenCount).toBe(0);
      }),
    );
  });

  it('maps every hidden character to exactly one marker, losing nothing', () => {
    fc.assert(
      fc.property(text, (input) => {
        const { text: shown, hiddenCount } = revealHidden(input);
        expect(shown.match(MARKERS)?.length ?? 0).toBe(hiddenCount);
        expect(unreveal(shown)).toBe(input);
      }),
    );
  });

  it('leaves text without hidden characters unchanged', () => {
    fc.assert(
      fc.property(plainText, (input) => {
        expect(revealHidden(input, { multiline: true })).toEqual({ text: input, hiddenCount: 0 });
      }),
    );
  });
});
