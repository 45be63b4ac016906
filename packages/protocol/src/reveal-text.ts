/** How `revealText` treats line structure. */
export interface RevealOptions {
  /** Keep `\n` and `\t` as they are (and `\r\n` as `\n`); otherwise they are shown as markers too. @default false */
  multiline?: boolean | undefined;
}

/** Text with every hidden character replaced by a visible marker, and how many there were. */
export interface RevealedText {
  text: string;
  /** How many hidden characters became markers; 0 means the text was shown as sent. */
  hiddenCount: number;
}

/** The warning every surface shows next to text that had hidden characters. */
export const HIDDEN_CHARACTERS_WARNING =
  'This action contains hidden characters (invisible, bidirectional or control characters); each is shown as ⟨U+…⟩.';

/** A marker as `revealText` writes it: `⟨U+202E⟩`. */
export const HIDDEN_CHARACTER_MARKER = /⟨U\+[0-9A-F]{4,6}⟩/;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const CONTROL = /^[\x00-\x1f\x7f-\x9f]$/;
// Bidi controls, zero-width and other default-ignorable characters that render as nothing.
const INVISIBLE =
  /^(?:\u034f|[\u00ad\u061c\u115f\u180e\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb])$/u;
const VARIATION_SELECTOR = /^[\ufe00-\ufe0f]$/;
const JOINS_EMOJI_AFTER = /^(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}]|\ufe0f)$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const LONE_SURROGATE = /^[\ud800-\udfff]$/;
const WHITESPACE = /^\s$/u;

/** The marker that stands for one hidden character: `⟨U+202E⟩`. */
export function hiddenCharacterMarker(ch: string): string {
  const hex = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `⟨U+${hex}⟩`;
}

// Tag characters (U+E0000–E007F) and supplementary variation selectors (U+E0100–E01EF) smuggle text.
function isHiddenPlane14(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return (cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

interface Neighbours {
  /** The code point before, when it was shown as itself. */
  shown: string | undefined;
  next: string | undefined;
  multiline: boolean;
}

// A variation selector is honest only right after a visible character it can shape; a run of them encodes data.
function isAbusedSelector(around: Neighbours): boolean {
  const base = around.shown;
  return base === undefined || WHITESPACE.test(base) || VARIATION_SELECTOR.test(base);
}

// A zero-width joiner is honest only inside an emoji sequence.
function isStrayJoiner(around: Neighbours): boolean {
  const base = around.shown;
  const joinsEmoji = base !== undefined && JOINS_EMOJI_AFTER.test(base);
  return !(joinsEmoji && around.next !== undefined && PICTOGRAPH.test(around.next));
}

function isHidden(ch: string, around: Neighbours): boolean {
  if (CONTROL.test(ch)) return !(around.multiline && (ch === '\n' || ch === '\t'));
  if (INVISIBLE.test(ch) || isHiddenPlane14(ch) || LONE_SURROGATE.test(ch)) return true;
  if (ch === '\u200d') return isStrayJoiner(around);
  if (VARIATION_SELECTOR.test(ch)) return isAbusedSelector(around);
  return false;
}

/**
 * Shows every hidden character as a visible marker such as `⟨U+202E⟩`: bidirectional controls, zero-width
 * and other invisible characters, tag characters, variation selectors outside an emoji or glyph, C0/C1
 * controls (terminal escapes included) and lone surrogates. Nothing is dropped, so the reviewer sees
 * exactly what was sent; ordinary Unicode (emoji sequences, accents, scripts) is left as it is.
 * @example revealHidden('invoice_\u202efdp.sh') // { text: 'invoice_⟨U+202E⟩fdp.sh', hiddenCount: 1 }
 */
export function revealHidden(input: string, options: RevealOptions = {}): RevealedText {
  if (PRINTABLE_ASCII.test(input)) return { text: input, hiddenCount: 0 };
  const multiline = options.multiline === true;
  const codePoints = Array.from(input);
  let text = '';
  let hiddenCount = 0;
  let shown: string | undefined;
  for (let i = 0; i < codePoints.length; i++) {
    const ch = codePoints[i]!;
    const next = codePoints[i + 1];
    // A Windows line end is a line end, not a hidden carriage return.
    if (multiline && ch === '\r' && next === '\n') continue;
    if (isHidden(ch, { shown, next, multiline })) {
      text += hiddenCharacterMarker(ch);
      hiddenCount++;
      shown = undefined;
    } else {
      text += ch;
      shown = ch;
    }
  }
  return { text, hiddenCount };
}

/**
 * The text with its hidden characters shown as markers (`revealHidden(input).text`).
 * @example revealText('echo safe\u202e && rm -rf ~') // 'echo safe⟨U+202E⟩ && rm -rf ~'
 */
export function revealText(input: string, options: RevealOptions = {}): string {
  return revealHidden(input, options).text;
}
