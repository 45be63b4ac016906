import { revealText } from '../reveal.js';
import { truncateToWidth } from '../sanitize.js';
import type { BriefingConfidence } from './briefing.js';

/** A gate's context as agents send it: any JSON, camelCase or snake_case keys. */
export type Context = Readonly<Record<string, unknown>>;

// Agents can send megabytes; a briefing shows the start of each value and says it was cut.
const MAX_VALUE_CHARS = 10_000;
const MAX_OBJECT_KEYS = 8;
const NAME_KEYS = ['summary', 'title', 'name', 'description', 'text', 'message'];

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** True for objects that are neither arrays nor null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first value present under any of `names` (each also tried in snake_case); null when none is. */
export function pick(context: Context, ...names: string[]): unknown {
  for (const name of names) {
    for (const key of [name, snakeCase(name)]) {
      const value = Object.hasOwn(context, key) ? context[key] : undefined;
      if (value !== undefined && value !== null) return value;
    }
  }
  return null;
}

function clip(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

function describeRecord(record: Record<string, unknown>, depth: number): string | null {
  for (const key of NAME_KEYS) {
    const named = Object.hasOwn(record, key) ? record[key] : undefined;
    if (typeof named === 'string' && named.trim() !== '') return named;
  }
  const parts = Object.entries(record)
    .slice(0, MAX_OBJECT_KEYS)
    .map(([key, value]) => {
      const text = depth > 1 ? '…' : describeRaw(value, depth + 1);
      return text === null ? null : `${key}: ${text}`;
    })
    .filter((part): part is string => part !== null);
  return parts.length === 0 ? null : parts.join('; ');
}

function describeRaw(value: unknown, depth: number): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    const items = value.map((item) => describeRaw(item, depth + 1)).filter((item) => item !== null);
    return items.length === 0 ? null : items.join(', ');
  }
  if (isRecord(value)) return describeRecord(value, depth);
  return null;
}

/** Readable text for any JSON value (objects by their summary/title/name or `key: value` pairs), hidden characters shown as markers; null when empty. */
export function describe(value: unknown, multiline = false): string | null {
  const raw = describeRaw(value, 0);
  if (raw === null) return null;
  const revealed = revealText(clip(raw), { multiline: true });
  const text = (multiline ? revealed : revealed.replace(/[\n\t]/g, ' ')).trim();
  return text === '' ? null : text;
}

/** One line of text from the first present field. */
export function readText(context: Context, ...names: string[]): string | null {
  return describe(pick(context, ...names));
}

/** Multi-line text from the first present field. */
export function readBlock(context: Context, ...names: string[]): string | null {
  return describe(pick(context, ...names), true);
}

/** A finite number from the first present field (numeric strings count). */
export function readNumber(context: Context, ...names: string[]): number | null {
  const value = pick(context, ...names);
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** The items of a list field as lines of text; a single value is a list of one. */
export function readList(context: Context, ...names: string[]): string[] {
  const value = pick(context, ...names);
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => describe(item)).filter((item): item is string => item !== null);
}

/** How many: a number, or the length of a list. */
export function readCount(context: Context, ...names: string[]): number | null {
  const value = pick(context, ...names);
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).length;
  return readNumber(context, ...names);
}

/** A nested object field, or null. */
export function readRecord(context: Context, ...names: string[]): Context | null {
  const value = pick(context, ...names);
  return isRecord(value) ? value : null;
}

/** A time as ISO 8601: epoch milliseconds are converted, strings are shown as sent. */
export function readTime(context: Context, ...names: string[]): string | null {
  const value = pick(context, ...names);
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15) {
    return new Date(value).toISOString();
  }
  return describe(value);
}

/** `recovery_attempts` / `recoveryAttempts` → `Recovery attempts`. */
export function humanize(name: string): string {
  const words = revealText(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? '' : words[0]!.toUpperCase() + words.slice(1);
}

/** `tool_call` → `Tool Call`, for gate titles. */
export function titleCase(name: string): string {
  return humanize(name).replace(/\b\p{Ll}/gu, (letter) => letter.toUpperCase());
}

/** A short one-line preview of a value, at most `width` columns. */
export function preview(value: unknown, width: number): string | null {
  const text = describe(value);
  return text === null ? null : truncateToWidth(text, width);
}

/** `1 story` / `3 stories`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A number without float noise: 0.1 + 0.2 → `0.3`. */
export function formatNumber(n: number): string {
  return String(Number(n.toFixed(2)));
}

/** `0.50 (medium)`. */
export function formatConfidence(confidence: BriefingConfidence): string {
  return `${confidence.value.toFixed(2)} (${confidence.band})`;
}
