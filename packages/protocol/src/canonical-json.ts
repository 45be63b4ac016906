import { GatehouseApiError } from './wire-error.js';

/**
 * Deepest nesting of arrays and objects canonicalJson accepts; well above the server's request
 * depth limit, low enough that the recursion can never overflow the stack.
 */
export const CANONICAL_JSON_MAX_DEPTH = 256;

/**
 * JSON with object keys sorted at every depth, so equal values always give equal text (the input
 * to payload hashes, audit hashes and signed decisions). Past CANONICAL_JSON_MAX_DEPTH it throws a
 * GatehouseApiError with code VALIDATION_FAILED and status 400.
 * @example canonicalJson({ b: 1, a: [2] }) // '{"a":[2],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const text = plainJson(value, 0);
  return text === undefined ? JSON.stringify(sortKeys(value, 0)) : text;
}

/**
 * The canonical text of a value built only of JSON's own kinds (what JSON.parse gives), or undefined
 * when anything else is met (a Date, a class instance, a function…): for such a value the text is the
 * same as that of the value JSON.stringify and JSON.parse make of it, so no copy need be made first.
 * @example plainCanonicalJson({ b: 1, a: [2] }) // '{"a":[2],"b":1}'
 */
export function plainCanonicalJson(value: unknown): string | undefined {
  return plainJson(value, 0);
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return false;
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) <= MAX_ARRAY_INDEX;
}

/**
 * Sorted keys in the order JSON.stringify writes a sorted copy's: an object lists array-index keys
 * first, by number (`{"7":…,"10":…}`), then the others in the order they were sorted.
 */
function keysInWrittenOrder(source: object): string[] {
  const keys = Object.keys(source).sort();
  if (!keys.some(isArrayIndex)) return keys;
  const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isArrayIndex(key))];
}

function refuseDepth(): never {
  throw new GatehouseApiError(
    'VALIDATION_FAILED',
    `value nested deeper than ${CANONICAL_JSON_MAX_DEPTH} levels; flatten it`,
    { status: 400, details: { limit: CANONICAL_JSON_MAX_DEPTH } },
  );
}

/**
 * The canonical text of a value built only of JSON's own kinds (what a parsed body is), written
 * directly without building sorted copies; undefined when anything else is met (a Date, a
 * function, a class instance…), which `sortKeys` and JSON.stringify then handle as they always did.
 */
function plainJson(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (depth >= CANONICAL_JSON_MAX_DEPTH) refuseDepth();
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const written = item === undefined ? 'null' : plainJson(item, depth + 1);
      if (written === undefined) return undefined;
      text += i === 0 ? written : `,${written}`;
    }
    return `${text}]`;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const source = value as Record<string, unknown>;
  let text = '{';
  for (const key of keysInWrittenOrder(source)) {
    const child = source[key];
    if (child === undefined) continue;
    // JSON.stringify would call a member named toJSON: left to the general path.
    if (key === 'toJSON') return undefined;
    const written = plainJson(child, depth + 1);
    if (written === undefined) return undefined;
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(key)}:${written}`;
  }
  return `${text}}`;
}

function sortKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= CANONICAL_JSON_MAX_DEPTH) refuseDepth();
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, depth + 1));
  const source = value as Record<string, unknown>;
  // A null prototype keeps a `__proto__` key as data, so hashes cover it too.
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(source).sort()) {
    const child = source[key];
    if (child !== undefined) sorted[key] = sortKeys(child, depth + 1);
  }
  return sorted;
}

/** The action an approval binds to, as a client or the server holds it. */
export interface PayloadAction {
  tool?: string | null | undefined;
  operation?: string | null | undefined;
  args?: unknown;
}

/**
 * The text an approval binds to: the tool or operation and its exact arguments.
 * @example payloadText({ tool: 'rm' }) // '{"args":{},"operation":null,"tool":"rm"}'
 */
export function payloadText(action: PayloadAction): string {
  return canonicalJson({
    tool: action.tool ?? null,
    operation: action.operation ?? null,
    args: action.args ?? {},
  });
}
