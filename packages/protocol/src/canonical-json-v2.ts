import { CANONICAL_JSON_MAX_DEPTH } from './canonical-json.js';
import { GatehouseApiError } from './wire-error.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function refuse(message: string, details: Record<string, unknown> = {}): never {
  throw new GatehouseApiError('VALIDATION_FAILED', message, { status: 400, details });
}

/**
 * Canonical JSON v2: the JSON Canonicalization Scheme of RFC 8785. Object keys sort by UTF-16
 * code units at every depth (`{"10":1,"7":2}` stays in that order), numbers are written as
 * ECMAScript writes them, and anything I-JSON forbids (non-finite numbers, lone surrogates,
 * values JSON has no form for) is refused with VALIDATION_FAILED; an object member whose value is
 * `undefined` is absent, as JSON.stringify leaves it out. Nesting is limited as in v1.
 * @example canonicalJsonV2({ 10: 1, 7: 2, b: [1.0, 'x'] }) // '{"10":1,"7":2,"b":[1,"x"]}'
 */
export function canonicalJsonV2(value: unknown): string {
  const out: string[] = [];
  write(value, 0, out);
  return out.join('');
}

function write(value: unknown, depth: number, out: string[]): void {
  if (value === null || typeof value === 'boolean') {
    out.push(String(value));
  } else if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value))
      refuse('a string holds a lone surrogate, which canonical JSON v2 cannot write');
    out.push(JSON.stringify(value));
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(`${value} has no JSON form; send a finite number`);
    out.push(JSON.stringify(value));
  } else if (typeof value === 'object') {
    if (depth >= CANONICAL_JSON_MAX_DEPTH)
      refuse(`value nested deeper than ${CANONICAL_JSON_MAX_DEPTH} levels; flatten it`, {
        limit: CANONICAL_JSON_MAX_DEPTH,
      });
    if (Array.isArray(value)) writeArray(value, depth, out);
    else writeObject(value, depth, out);
  } else {
    refuse(
      `a ${typeof value} has no JSON form; send null, a boolean, a number, a string, an array or an object`,
    );
  }
}

function writeArray(items: readonly unknown[], depth: number, out: string[]): void {
  out.push('[');
  items.forEach((item, index) => {
    if (index > 0) out.push(',');
    if (item === undefined) refuse('an array holds undefined, which has no JSON form; use null');
    write(item, depth + 1, out);
  });
  out.push(']');
}

function writeObject(value: object, depth: number, out: string[]): void {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    refuse('only plain objects have a JSON form; convert the value to one first');
  const source = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, which is RFC 8785's key order.
  const keys = Object.keys(source)
    .filter((key) => source[key] !== undefined)
    .sort();
  out.push('{');
  keys.forEach((key, index) => {
    if (index > 0) out.push(',');
    write(key, depth, out);
    out.push(':');
    write(source[key], depth + 1, out);
  });
  out.push('}');
}
