import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  graphemes,
  sanitizeDeep,
  sanitizeText,
  truncateToWidth,
  wrapToWidth,
} from './sanitize.js';

const SINGLE_LINE_FORBIDDEN = /[\x00-\x1f\x7f-\x9f]/;
const MULTILINE_FORBIDDEN = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const INVISIBLE = /[\u00ad\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

// Fragments that combine into escape sequences, joiners and surrogate pairs when strung together.
const tricky = fc.constantFrom(
  '\x1b',
  '[',
  ']',
  '\\',
  '\x07',
  '\x9b',
  '\x9d',
  '8;;',
  '31m',
  '\r',
  '\n',
  '\t',
  '\u200d',
  '\u200b',
  '\ufe0f',
  '\ufe0e',
  '\u202e',
  '\u2066',
  '\ud83d',
  '\ude00',
  '😀',
  '❤',
  '👩',
  '\u0301',
  '中',
  'a',
  ' ',
  '\u{e0041}',
  '\u{e0101}',
);
const hostile = fc
  .array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('sanitizeText', () => {
  it.each([
    ['SGR colours', 'a\x1b[31mred\x1b[0m b', 'ared b'],
    ['cursor movement', 'x\x1b[2J\x1b[1;1Hy', 'xy'],
    ['private modes', 'x\x1b[?25ly', 'xy'],
    ['an OSC window title ended by BEL', '\x1b]0;pwned\x07ok', 'ok'],
    ['an OSC 8 hyperlink ended by ST', '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\', 'click'],
    ['a DCS string', 'a\x1bPq#0;2;0;0;0\x1b\\b', 'ab'],
    ['a C1 CSI', 'a\x9b31mb', 'ab'],
    ['a C1 OSC', 'a\x9d0;title\x9cb', 'ab'],
    ['a charset switch', 'a\x1b(Bb', 'ab'],
    ['a lone ESC', 'a\x1b', 'a'],
    ['an unterminated OSC, leaving its text inert', 'a\x1b]0;x', 'a0;x'],
    ['NUL, BEL, backspace and DEL', 'a\x00b\x07c\x08d\x7fe', 'abcde'],
  ])('removes %s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it.each([
    0x00ad, 0x061c, 0x200b, 0x200c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061,
    0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff, 0xe0001, 0xe0041, 0xe007f, 0xe0100,
  ])('removes the invisible or bidi character U+%s', (codePoint) => {
    expect(sanitizeText(`ab${String.fromCodePoint(codePoint)}cd`)).toBe('abcd');
  });

  it('replaces lone surrogates but keeps pairs', () => {
    expect(sanitizeText('a\ud83db\ude00c😀')).toBe('a\ufffdb\ufffdc😀');
  });

  it.each([
    ['accents', 'Crème brûlée, naïve, Ångström'],
    ['combining marks', 'e\u0301 a\u0308'],
    ['CJK and Hangul', '漢字かなカナ 한국어'],
    ['emoji with skin tones and presentation selectors', '👍🏽 ❤️ ☺︎ 1️⃣'],
    ['emoji joined into one', '👨‍👩‍👧 🏳️‍🌈 🧑🏽‍💻'],
    ['flags', '🇫🇷🇯🇵'],
    ['right-to-left text', 'שלום مرحبا'],
  ])('keeps %s intact', (_name, text) => {
    expect(sanitizeText(text)).toBe(text);
  });

  it('drops joiners and selectors that do not shape an emoji', () => {
    expect(sanitizeText('a\u200db \ufe0f x\ufe0f\ufe0f')).toBe('ab  x\ufe0f');
  });

  it('turns line breaks and tabs into spaces on one line', () => {
    expect(sanitizeText('a\nb\r\nc\rd\te\u2028f')).toBe('a b c d e f');
  });

  it('keeps newlines and tabs in multiline text and normalises carriage returns', () => {
    expect(sanitizeText('a\nb\r\nc\rd\te\x0bf', { multiline: true })).toBe('a\nb\nc\nd\te\nf');
  });

  it('returns printable ASCII unchanged', () => {
    const text = 'plain text, 100% ASCII ~!@#$%^&*()';
    expect(sanitizeText(text)).toBe(text);
  });

  it('never lets a control or invisible character through', () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (input, multiline) => {
        const out = sanitizeText(input, { multiline });
        expect(out).not.toMatch(multiline ? MULTILINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN);
        expect(out).not.toMatch(INVISIBLE);
        expect(out).not.toMatch(/[\ud800-\udfff]/u);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (input, multiline) => {
        const once = sanitizeText(input, { multiline });
        expect(sanitizeText(once, { multiline })).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('sanitizeDeep', () => {
  it('sanitizes every string and key and keeps the shape', () => {
    const input = {
      'na\u202eme': 'x\x1b[31my',
      list: ['a\u200bb', 1, true, null],
      nested: { text: 'l1\nl2' },
    };
    expect(sanitizeDeep(input)).toEqual({
      name: 'xy',
      list: ['ab', 1, true, null],
      nested: { text: 'l1\nl2' },
    });
  });

  it('returns a new value and leaves the input alone', () => {
    const input = { a: ['x\u200by'] };
    const out = sanitizeDeep(input) as { a: string[] };
    expect(out).not.toBe(input);
    expect(out.a).not.toBe(input.a);
    expect(input.a[0]).toBe('x\u200by');
  });

  it('drops __proto__, constructor and prototype keys, also when hidden with invisible characters', () => {
    const input = JSON.parse('{"__proto__":{"polluted":true},"constructor":1,"prototype":2,"ok":3}');
    input['__proto__\u200b'] = { polluted: true };
    const out = sanitizeDeep(input) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('turns cycles and non-finite numbers into null and leaves out what JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = { n: Number.NaN, f: () => 1, u: undefined, big: 1n };
    cyclic.self = cyclic;
    expect(sanitizeDeep(cyclic)).toEqual({ n: null, self: null });
    expect(sanitizeDeep([undefined, Symbol('s')])).toEqual([null, null]);
    expect(sanitizeDeep(undefined)).toBeNull();
  });

  it('keeps line breaks in values by default and can fold them', () => {
    expect(sanitizeDeep({ 'k\ney': 'a\nb' })).toEqual({ 'k ey': 'a\nb' });
    expect(sanitizeDeep({ k: 'a\nb' }, { multiline: false })).toEqual({ k: 'a b' });
  });

  it('leaves no control character in any string or key of a JSON value', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'object' && value !== null
          ? Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)])
          : [];
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const text of strings(sanitizeDeep(value))) expect(text).not.toMatch(MULTILINE_FORBIDDEN);
      }),
    );
  });
});

describe('displayWidth', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['e\u0301', 1],
    ['\u0301', 0],
    // U+0600 prepends itself to the next character: the pair takes that character's one column.
    ['a\u0600b', 2],
    ['\u0600', 0],
    ['中文', 4],
    ['한국어', 6],
    ['ｱｲ', 2],
    ['ＡＢ', 4],
    ['😀', 2],
    ['👍🏽', 2],
    ['👨‍👩‍👧', 2],
    ['🇫🇷', 2],
    ['❤', 1],
    ['❤️', 2],
    ['☺︎', 1],
    ['1️⃣', 2],
    ['a\tb', 2],
    ['…', 1],
    ['𠀀', 2],
  ])('%j takes %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('graphemes', () => {
  it('keeps joined emoji and accents whole', () => {
    expect(graphemes('a👨‍👩‍👧e\u0301🇫🇷')).toEqual(['a', '👨‍👩‍👧', 'e\u0301', '🇫🇷']);
  });
});

describe('truncateToWidth', () => {
  it.each([
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['a longer sentence', 10, 'a longer …'],
    ['😀😀😀', 4, '😀…'],
    ['中文中文', 5, '中文…'],
    ['👨‍👩‍👧👨‍👩‍👧', 3, '👨‍👩‍👧…'],
    ['abc', 1, '…'],
    ['abc', 0, ''],
    ['abc', -5, ''],
  ])('cuts %j to %i columns', (text, width, expected) => {
    expect(truncateToWidth(text, width)).toBe(expected);
  });

  it('cuts a long text without reading past what it shows', () => {
    const long = 'const x = 1;\n'.repeat(8_000);
    const started = performance.now();
    const cut = truncateToWidth(long, 80);
    // Measuring every character of 100 kB takes seconds; reading 80 columns, microseconds.
    expect(performance.now() - started).toBeLessThan(250);
    expect(cut).toBe(truncateToWidth(long.slice(0, 200), 80));
  });

  it('cuts exactly where measuring the whole text first would', () => {
    const reference = (s: string, width: number) => {
      const limit = Math.max(0, Math.floor(width));
      if (displayWidth(s) <= limit) return s;
      if (limit === 0) return '';
      let out = '';
      let used = 0;
      for (const grapheme of graphemes(s)) {
        if (used + displayWidth(grapheme) > limit - 1) break;
        out += grapheme;
        used += displayWidth(grapheme);
      }
      return `${out}…`;
    };
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.integer({ min: -1, max: 45 }),
        (s, width) => {
          expect(truncateToWidth(s, width)).toBe(reference(s, width));
        },
      ),
    );
    // Plain ASCII (cut without measuring graphemes), alone and before text that is not.
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 5 }),
        fc.integer({ min: -1, max: 45 }),
        (ascii, tail, width) => {
          expect(truncateToWidth(ascii, width)).toBe(reference(ascii, width));
          expect(truncateToWidth(ascii + tail, width)).toBe(reference(ascii + tail, width));
        },
      ),
    );
  });

  it('never exceeds the width and never splits a character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 30 }),
        fc.integer({ min: 0, max: 40 }),
        (s, width) => {
          const clean = sanitizeText(s);
          const out = truncateToWidth(clean, width);
          expect(displayWidth(out)).toBeLessThanOrEqual(width);
          const kept = out.endsWith('…') && out !== clean ? out.slice(0, -1) : out;
          expect(clean.startsWith(kept)).toBe(true);
        },
      ),
    );
  });
});

describe('wrapToWidth', () => {
  it('wraps at spaces', () => {
    expect(wrapToWidth('the quick brown fox jumps over', 10)).toEqual([
      'the quick',
      'brown fox',
      'jumps over',
    ]);
  });

  it('hard-breaks words longer than a line', () => {
    expect(wrapToWidth('see abcdefghijkl end', 5)).toEqual(['see', 'abcde', 'fghij', 'kl', 'end']);
  });

  it('breaks wide characters by columns, never inside one', () => {
    expect(wrapToWidth('中文中文中', 4)).toEqual(['中文', '中文', '中']);
    expect(wrapToWidth('😀😀😀', 3)).toEqual(['😀', '😀', '😀']);
  });

  it('keeps paragraphs, empty lines and indentation', () => {
    expect(wrapToWidth('one two\n\n  indented text here', 12)).toEqual([
      'one two',
      '',
      '  indented',
      '  text here',
    ]);
  });

  it('expands tabs and returns one empty line for empty text', () => {
    expect(wrapToWidth('\tx', 10)).toEqual(['  x']);
    expect(wrapToWidth('', 10)).toEqual(['']);
    expect(wrapToWidth('   ', 10)).toEqual(['']);
  });

  it('shows a character wider than the whole line as an ellipsis', () => {
    expect(wrapToWidth('中', 1)).toEqual(['…']);
    expect(wrapToWidth('ab', Number.NaN)).toEqual(['a', 'b']);
  });

  it('never makes a line wider than the width', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 1, max: 60 }), (s, width) => {
        for (const line of wrapToWidth(sanitizeText(s, { multiline: true }), width)) {
          expect(displayWidth(line)).toBeLessThanOrEqual(width);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('loses no visible character when every character fits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.integer({ min: 2, max: 30 }),
        (s, width) => {
          const clean = sanitizeText(s);
          const visible = (text: string) => graphemes(text.replace(/\s/g, ''));
          expect(visible(wrapToWidth(clean, width).join(''))).toEqual(visible(clean));
        },
      ),
    );
  });
});
