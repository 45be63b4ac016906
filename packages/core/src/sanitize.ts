import { type RevealOptions, revealText } from './reveal.js';

/** How `sanitizeText` treats line structure. */
export interface SanitizeOptions {
  /** Keep `\n` and `\t` (with `\r\n` and lone `\r` turned into `\n`); otherwise every line break or tab becomes a space. @default false */
  multiline?: boolean | undefined;
}

// OSC / DCS / SOS / PM / APC strings up to BEL or ST, CSI sequences, then any other ESC sequence.
const ESCAPE_SEQUENCE =
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\x20-\x2f]*[\x30-\x7e]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const LINE_BREAK = /^[\n\r\v\f\x85\u2028\u2029]$/;
const CONTROL = /^[\x00-\x1f\x7f-\x9f]$/;
const INVISIBLE =
  /^[\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]$/u;
const VARIATION_SELECTOR = /^[\ufe00-\ufe0f]$/;
const JOINS_EMOJI_AFTER = /^(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}]|\ufe0f)$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const LONE_SURROGATE = /^[\ud800-\udfff]$/;

// Tag characters (U+E0000–E007F) and supplementary variation selectors (U+E0100–E01EF) hide text.
function isHiddenPlane14(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return (cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

// ZWJ and variation selectors only survive where they shape the character before them, so emoji stay intact.
function keepJoiner(last: string, next: string | undefined): boolean {
  return JOINS_EMOJI_AFTER.test(last) && next !== undefined && PICTOGRAPH.test(next);
}

function keepSelector(last: string): boolean {
  return last !== '' && last !== ' ' && last !== '\n' && last !== '\t' && !VARIATION_SELECTOR.test(last);
}

function cleanCodePoint(ch: string, last: string, next: string | undefined, multiline: boolean): string {
  if (ch === '\r' && next === '\n') return '';
  if (LINE_BREAK.test(ch)) return multiline ? '\n' : ' ';
  if (ch === '\t') return multiline ? '\t' : ' ';
  if (CONTROL.test(ch) || INVISIBLE.test(ch) || isHiddenPlane14(ch)) return '';
  if (ch === '\u200d') return keepJoiner(last, next) ? ch : '';
  if (VARIATION_SELECTOR.test(ch)) return keepSelector(last) ? ch : '';
  if (LONE_SURROGATE.test(ch)) return '\ufffd';
  return ch;
}

/**
 * Makes text machine-safe by removing terminal escape sequences, control, zero-width, bidi and tag
 * characters and replacing lone surrogates, leaving ordinary Unicode intact. It hides what it removes,
 * so text a person reads goes through `revealText` instead; use this for identifiers, names and log excerpts.
 * @example sanitizeText('ok\x1b[31m red\u202e') // 'ok red'
 */
export function sanitizeText(input: string, options: SanitizeOptions = {}): string {
  if (PRINTABLE_ASCII.test(input)) return input;
  const multiline = options.multiline === true;
  const codePoints = Array.from(input.replace(ESCAPE_SEQUENCE, ''));
  let out = '';
  let last = '';
  for (let i = 0; i < codePoints.length; i++) {
    const kept = cleanCodePoint(codePoints[i]!, last, codePoints[i + 1], multiline);
    if (kept === '') continue;
    out += kept;
    last = kept;
  }
  return out;
}

/** A value that JSON can carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type TextCleaner = (text: string, isKey: boolean) => string;

function cleanValue(value: unknown, clean: TextCleaner, ancestors: Set<object>): JsonValue | undefined {
  if (typeof value === 'string') return clean(value, false);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value === null) return value;
  if (typeof value !== 'object') return undefined;
  if (ancestors.has(value)) return null;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => cleanValue(item, clean, ancestors) ?? null);
    const out: { [key: string]: JsonValue } = {};
    for (const [rawKey, item] of Object.entries(value)) {
      const key = clean(rawKey, true);
      const cleaned = cleanValue(item, clean, ancestors);
      if (!FORBIDDEN_KEYS.has(key) && cleaned !== undefined) out[key] = cleaned;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * Returns a sanitized copy of a JSON value: every string and key goes through `sanitizeText`,
 * `__proto__` / `constructor` / `prototype` keys are dropped, cycles and non-finite numbers become null,
 * and values JSON cannot carry (functions, symbols, undefined) are left out.
 * @default strings keep their line breaks (`multiline: true`); keys never do
 */
export function sanitizeDeep(value: unknown, options: SanitizeOptions = { multiline: true }): JsonValue {
  const clean: TextCleaner = (text, isKey) => sanitizeText(text, isKey ? {} : options);
  return cleanValue(value, clean, new Set()) ?? null;
}

/**
 * Returns a copy of a JSON value for display: every string and key goes through `revealText`, so hidden
 * characters show as markers instead of vanishing; unsafe keys, cycles and non-JSON values as `sanitizeDeep`.
 * @default strings keep their line breaks (`multiline: true`); keys never do
 */
export function revealDeep(value: unknown, options: RevealOptions = { multiline: true }): JsonValue {
  const clean: TextCleaner = (text, isKey) => revealText(text, isKey ? {} : options);
  return cleanValue(value, clean, new Set()) ?? null;
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The user-perceived characters of `s`, so width math never splits an emoji or an accent. */
export function graphemes(s: string): string[] {
  return Array.from(graphemeSegmenter.segment(s), (part) => part.segment);
}

const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x16ff0, 0x16ff1],
  [0x17000, 0x18cd5],
  [0x18d00, 0x18d08],
  [0x1aff0, 0x1b2ff],
  [0x1f200, 0x1f265],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff]$/u;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const EMOJI = /^\p{Emoji}$/u;

function isWide(codePoint: number): boolean {
  return WIDE_RANGES.some(([start, end]) => codePoint >= start && codePoint <= end);
}

function graphemeWidth(grapheme: string): number {
  // A prepended mark (U+0600 and the like) joins the character after it: the width is that one's.
  const first = Array.from(grapheme).find((ch) => !ZERO_WIDTH.test(ch));
  if (first === undefined) return 0;
  if (EMOJI.test(first) && grapheme.includes('\ufe0f')) return 2;
  if (EMOJI.test(first) && grapheme.includes('\ufe0e')) return 1;
  if (EMOJI_PRESENTATION.test(first)) return 2;
  return isWide(first.codePointAt(0) ?? 0) ? 2 : 1;
}

/** Terminal columns `s` takes on one line: East Asian wide and fullwidth characters and emoji take 2, combining marks and controls 0. */
export function displayWidth(s: string): number {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  let width = 0;
  for (const grapheme of graphemes(s)) width += graphemeWidth(grapheme);
  return width;
}

const ELLIPSIS = '…';

/** Cuts one line to at most `width` columns, ending in `…` when something was cut; never splits a character. */
export function truncateToWidth(s: string, width: number): string {
  const limit = Math.max(0, Math.floor(width));
  // Printable ASCII takes a column a character: cut it without splitting it into graphemes.
  const head = s.slice(0, limit + 1);
  if (PRINTABLE_ASCII.test(head)) {
    if (head.length <= limit) return s;
    return limit === 0 ? '' : `${head.slice(0, limit - 1)}${ELLIPSIS}`;
  }
  let kept: string | null = null;
  let used = 0;
  // Reads only until the text is known to be too wide: a megabyte cut to a line costs a line.
  for (const { segment, index } of graphemeSegmenter.segment(s)) {
    const w = graphemeWidth(segment);
    if (kept === null && used + w > limit - 1) kept = s.slice(0, index);
    used += w;
    if (used > limit) return limit === 0 ? '' : `${kept}${ELLIPSIS}`;
  }
  return s;
}

// Splits a word into pieces of at most `width` columns; a character wider than the line becomes `…`.
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const grapheme of graphemes(word)) {
    const fits = graphemeWidth(grapheme) <= width;
    const g = fits ? grapheme : ELLIPSIS;
    const w = fits ? graphemeWidth(grapheme) : 1;
    if (used + w > width) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += g;
    used += w;
  }
  pieces.push(piece);
  return pieces;
}

function wrapParagraph(paragraph: string, width: number): string[] {
  const leading = /^ */.exec(paragraph)?.[0] ?? '';
  // Indentation never takes more than half the line, nor the room a wide character needs.
  const indent = leading.length * 2 <= width && width - leading.length >= 2 ? leading : '';
  const words = paragraph.split(' ').filter((word) => word !== '');
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const room = width - indent.length;
  for (const word of words) {
    const w = displayWidth(word);
    if (line !== '' && used + 1 + w <= room) {
      line += ` ${word}`;
      used += 1 + w;
      continue;
    }
    if (line !== '') lines.push(indent + line);
    const pieces = w <= room ? [word] : breakWord(word, room);
    for (const piece of pieces.slice(0, -1)) lines.push(indent + piece);
    line = pieces.at(-1) ?? '';
    used = displayWidth(line);
  }
  lines.push(line === '' ? '' : indent + line);
  return lines;
}

/**
 * Wraps text into lines of at most `width` columns: breaks at spaces, hard-breaks words longer than a
 * line, keeps each paragraph's indentation and empty lines; tabs count as two spaces.
 */
export function wrapToWidth(s: string, width: number): string[] {
  const columns = Number.isFinite(width) ? Math.max(1, Math.floor(width)) : 1;
  return s
    .replace(/\t/g, '  ')
    .split('\n')
    .flatMap((paragraph) => wrapParagraph(paragraph, columns));
}
