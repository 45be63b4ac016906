import type { Io, Output } from './command.js';

/** Writes `value` as indented JSON, the way `--json` prints every answer. */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes lines of text to stdout. */
export function printLines(io: Io, ...lines: string[]): void {
  io.stdout.write(`${lines.join('\n')}\n`);
}

// Core's hidden characters (controls, bidi, zero-width, tags, lone surrogates), kept here so printing never
// loads core; output.test.ts holds the two equal.
const UNSAFE =
  /\u034f|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]|[\ud800-\udfff]/gu;

/** Text from the server made safe for one terminal line: hidden characters shown as `⟨U+202E⟩`, newlines as ⏎. */
export function terminalSafe(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text
    .replace(/\r?\n/g, ' ⏎ ')
    .replace(/\t/g, ' ')
    .replace(
      UNSAFE,
      (char) => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
    );
}

/** Like terminalSafe, but keeps line breaks (for multi-line text such as a policy source). */
export function terminalSafeBlock(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => terminalSafe(line.replace(/\t/g, '  ')))
    .join('\n');
}

function truncate(text: string, width: number): string {
  if (width <= 1 || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}

/** Prints rows as aligned columns; the last column is cut to the terminal's width on a TTY. */
export function printTable(
  out: Output,
  headers: string[],
  rows: unknown[][],
  empty = 'nothing to show',
): void {
  if (rows.length === 0) {
    out.write(`${empty}\n`);
    return;
  }
  const cells = rows.map((row) => row.map(terminalSafe));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const lastIndex = headers.length - 1;
  const fixed = widths.slice(0, lastIndex).reduce((sum, width) => sum + width + 2, 0);
  const available = out.isTTY && out.columns ? Math.max(20, out.columns - fixed) : Number.POSITIVE_INFINITY;
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === lastIndex ? truncate(cell, available) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  out.write(`${[line(headers), ...cells.map(line)].join('\n')}\n`);
}

/** Prints `label: value` pairs aligned, skipping empty values. */
export function printFields(out: Output, fields: [string, unknown][]): void {
  const shown = fields.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(...shown.map(([label]) => label.length));
  out.write(
    `${shown.map(([label, value]) => `${`${label}:`.padEnd(width + 1)}  ${terminalSafe(value)}`).join('\n')}\n`,
  );
}

/** `3m ago`, `in 2h` – a short distance between two epoch-ms times. */
export function relativeTime(at: number | null | undefined, now: number): string {
  if (at === null || at === undefined) return '-';
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  const text =
    abs < 60
      ? `${abs}s`
      : abs < 3600
        ? `${Math.floor(abs / 60)}m`
        : abs < 86_400
          ? `${Math.floor(abs / 3600)}h`
          : `${Math.floor(abs / 86_400)}d`;
  return seconds >= 0 ? `in ${text}` : `${text} ago`;
}

/** An epoch-ms time as ISO-8601, or `-`. */
export function isoTime(at: number | null | undefined): string {
  return at === null || at === undefined ? '-' : new Date(at).toISOString();
}
