/** Text run by the shell inside a word: `$(…)` or `` `…` `` (command) or `<(…)`/`>(…)` (process). */
export interface Substitution {
  kind: 'command' | 'process';
  body: string;
}

/** A command line with what a word splitter cannot see lifted out: substitutions, heredocs, comments. */
export interface ScannedShell {
  /** The text with each substitution replaced by a placeholder word and unquoted line breaks as `;`. */
  text: string;
  substitutions: Substitution[];
  /** Heredoc bodies, in the order their `<<` operators appear. */
  heredocs: string[];
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** Stands for `$` outside single quotes, so the word splitter keeps `$HOME` as written instead of expanding it. */
export const DOLLAR = '\uE002';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const WORD_BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** The placeholder that stands for substitution `index` in a scanned text. */
export function placeholderOf(index: number): string {
  return `${OPEN}${index}${CLOSE}`;
}

/** Indexes of the substitutions whose placeholders occur in `word`. */
export function placeholdersIn(word: string): number[] {
  return [...word.matchAll(PLACEHOLDER)].map((match) => Number(match[1]));
}

/** Index just past the quoted string that opens at `start` (`'…'` or `"…"`). */
function skipQuoted(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length && source[i] !== quote) i += quote === '"' && source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index of the `)` that closes the `(` at `open`, skipping quotes and nested parentheses. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === "'" || ch === '"') i = skipQuoted(source, i) - 1;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return source.length;
}

function closingBacktick(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '`') return i;
  }
  return source.length;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
}

/** Reads `<<[-] WORD`; returns the header as the splitter should see it and where it ends. */
function readHeredocHeader(
  source: string,
  start: number,
): { header: string; end: number; pending: PendingHeredoc } {
  let i = start + 2;
  const stripTabs = source[i] === '-';
  if (stripTabs) i++;
  while (source[i] === ' ' || source[i] === '\t') i++;
  let delimiter = '';
  while (i < source.length && !WORD_BREAK.has(source[i] as string)) {
    const ch = source[i] as string;
    if (ch === "'" || ch === '"') {
      const end = skipQuoted(source, i);
      delimiter += source.slice(i + 1, end - 1);
      i = end;
    } else {
      delimiter += ch === '\\' ? '' : ch;
      i++;
    }
  }
  const word = delimiter === '' ? 'EOF' : delimiter;
  return {
    header: `${stripTabs ? '<<-' : '<<'} '${word.replaceAll("'", '')}' `,
    end: i,
    pending: { delimiter, stripTabs },
  };
}

/** Consumes the heredoc bodies that start at `start`; returns the bodies and where the text goes on. */
function readHeredocBodies(
  source: string,
  start: number,
  pending: PendingHeredoc[],
): { bodies: string[]; end: number } {
  const bodies: string[] = [];
  let i = start;
  for (const heredoc of pending) {
    const lines: string[] = [];
    while (i < source.length) {
      const newline = source.indexOf('\n', i);
      const lineEnd = newline === -1 ? source.length : newline;
      const line = source.slice(i, lineEnd);
      i = lineEnd + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) break;
      lines.push(line);
    }
    bodies.push(lines.join('\n'));
  }
  return { bodies, end: i };
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** Decodes a `$'…'` string from `start` (just past the quote), so `$'\x72m'` reads as `rm`. */
function readAnsiC(source: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start;
  while (i < source.length && source[i] !== "'") {
    if (source[i] !== '\\') {
      text += source[i++];
      continue;
    }
    const sequence =
      source
        .slice(i + 1)
        .match(/^(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/s)?.[0] ?? '';
    const kind = sequence[0] ?? '';
    if (kind === 'x' || kind === 'u' || kind === 'U')
      text += String.fromCodePoint(Math.min(Number.parseInt(sequence.slice(1), 16), 0x10ffff));
    else if (/[0-7]/.test(kind)) text += String.fromCharCode(Number.parseInt(sequence, 8));
    else if (kind === 'c') text += String.fromCharCode((sequence.charCodeAt(1) || 64) & 31);
    else text += ANSI_C_ESCAPES[kind] ?? kind;
    i += 1 + sequence.length;
  }
  return { text, end: i + 1 };
}

function atWordStart(out: string[]): boolean {
  const last = out[out.length - 1];
  return last === undefined || WORD_BREAK.has(last.slice(-1));
}

/**
 * Lifts out of a shell text what a word splitter cannot handle: command and process substitutions
 * (outside single quotes), heredoc bodies, comments, and line breaks that separate commands;
 * every other `$` outside single quotes becomes DOLLAR.
 */
export function scanShell(source: string): ScannedShell {
  const out: string[] = [];
  const substitutions: Substitution[] = [];
  const heredocs: string[] = [];
  let pending: PendingHeredoc[] = [];
  let inDouble = false;
  const substitute = (kind: Substitution['kind'], body: string) => {
    out.push(placeholderOf(substitutions.length));
    substitutions.push({ kind, body });
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];
    if (ch === '\\') {
      // A backslash-newline joins two lines; any other escape stays for the word splitter.
      if (next !== '\n') out.push(ch + (next ?? ''));
      i += 2;
    } else if (ch === "'" && !inDouble) {
      const end = skipQuoted(source, i);
      out.push(source.slice(i, end));
      i = end;
    } else if (ch === '"') {
      inDouble = !inDouble;
      out.push(ch);
      i++;
    } else if (ch === '$' && next === '(') {
      const end = closingParen(source, i + 1);
      // `$((…))` is arithmetic in bash, but `$((cmd) )` runs cmd: the body is walked as commands either way.
      substitute('command', source.slice(i + 2, end));
      i = end + 1;
    } else if (ch === '$' && next === "'" && !inDouble) {
      const { text, end } = readAnsiC(source, i + 2);
      out.push(`'${text.replaceAll("'", "'\\''")}'`);
      i = end;
    } else if (ch === '$' && next === '"' && !inDouble) {
      // $"…" is a translated string: the same words as "…".
      i++;
    } else if (ch === '$') {
      out.push(DOLLAR);
      i++;
    } else if (ch === '`') {
      const end = closingBacktick(source, i);
      substitute('command', source.slice(i + 1, end).replace(/\\([`\\$])/g, '$1'));
      i = end + 1;
    } else if (inDouble) {
      out.push(ch);
      i++;
    } else if ((ch === '<' || ch === '>') && next === '(') {
      const end = closingParen(source, i + 1);
      substitute('process', source.slice(i + 2, end));
      i = end + 1;
    } else if (ch === '#' && atWordStart(out)) {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('<<<', i)) {
      out.push('<<<');
      i += 3;
    } else if (source.startsWith('<<', i)) {
      const { header, end, pending: heredoc } = readHeredocHeader(source, i);
      out.push(header);
      pending.push(heredoc);
      i = end;
    } else if (ch === '\n') {
      out.push(' ; ');
      const read = readHeredocBodies(source, i + 1, pending);
      heredocs.push(...read.bodies);
      pending = [];
      i = read.end;
    } else {
      out.push(ch);
      i++;
    }
  }
  return { text: out.join(''), substitutions, heredocs };
}
