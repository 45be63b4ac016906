import { type Briefing, briefingOptions, buildBriefing } from '../briefing/briefing.js';
import type { Action, Gate } from '../schemas.js';
import type { PolicyRedact } from './policy-schema.js';

/** What an audit event holds in place of a hidden value. */
export const REDACTED = '[redacted]';

/**
 * Key-name patterns hidden in every audit event whatever the policy says: an audit event can never
 * be changed, so a secret written to one stays there. Matched like a policy's `redact.keys`.
 */
export const DEFAULT_REDACTED_KEYS: readonly string[] = [
  '*password*',
  '*passwd*',
  '*passphrase*',
  'pass',
  '*secret*',
  '*token',
  '*authorization*',
  '*api_key*',
  '*private_key*',
  '*access_key*',
  '*credential*',
  '*cookie*',
  'jwt',
];

/** The shortest hidden value that is also cut out of every other string of the event. */
const MIN_SCRUBBED_LENGTH = 4;

/** Which policy path root a field of a redacted record is read against. */
export type RedactionRoot = 'args' | 'context';

/** A glob over a key with separators dropped and letters lowered: `*` matches any run of characters. */
interface KeyPattern {
  parts: string[];
  anchoredStart: boolean;
  anchoredEnd: boolean;
}

interface PathRule {
  root: RedactionRoot;
  segments: string[];
}

interface Rules {
  keys: KeyPattern[];
  paths: PathRule[];
}

const SEPARATORS = /[\s_.-]+/g;

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(SEPARATORS, '');
}

function compileKeyPattern(pattern: string): KeyPattern {
  const glob = normalizeKey(pattern);
  return {
    parts: glob.split('*').filter((part) => part !== ''),
    anchoredStart: !glob.startsWith('*'),
    anchoredEnd: !glob.endsWith('*'),
  };
}

/** Plain string search, no regular expression: each part is found in order, leftmost first. */
function globMatches(pattern: KeyPattern, key: string): boolean {
  const { parts, anchoredStart, anchoredEnd } = pattern;
  if (parts.length === 0) return !anchoredStart || key === '';
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const last = i === parts.length - 1;
    if (i === 0 && anchoredStart) {
      if (!key.startsWith(part)) return false;
      if (last && anchoredEnd) return key.length === part.length;
      at = part.length;
    } else if (last && anchoredEnd) {
      return key.length - part.length >= at && key.endsWith(part);
    } else {
      const found = key.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
  }
  return !anchoredEnd || at === key.length;
}

const DEFAULT_KEY_PATTERNS = DEFAULT_REDACTED_KEYS.map(compileKeyPattern);

function compileRules(redact: PolicyRedact | undefined): Rules {
  const own = (redact?.keys ?? []).map((key) => compileKeyPattern(key.includes('*') ? key : `*${key}*`));
  const paths = (redact?.paths ?? []).map((path): PathRule => {
    const [root, ...segments] = path.split('.');
    return { root: root === 'context' ? 'context' : 'args', segments };
  });
  return { keys: [...DEFAULT_KEY_PATTERNS, ...own], paths };
}

/** A secret-looking value: group 1 is kept, group 2 hidden. */
interface ValuePattern {
  pattern: RegExp;
  /** Whether a match is a credential and not a word of prose. @default every match is */
  isCredential?: (secret: string) => boolean;
}

// A word after "Bearer" in prose is not a credential; a token holds a digit or a symbol.
const CREDENTIAL_CHARACTER = /[0-9._~+/=-]/;

/**
 * Each start is preceded by a character its body cannot hold and nothing follows an open-ended
 * body, so no pattern backtracks over more than a bounded stretch of the text.
 */
const VALUE_PATTERNS: readonly ValuePattern[] = [
  {
    pattern:
      /(?<![A-Za-z0-9])((?:Bearer|bearer|BEARER|Basic|basic|BASIC)[ \t]{1,10})([A-Za-z0-9._~+/-]{8,}=*)/g,
    isCredential: (secret) => CREDENTIAL_CHARACTER.test(secret),
  },
  {
    pattern:
      /(?<![A-Za-z0-9_-])()((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|sk-[A-Za-z0-9_-]{20,}|AIza[A-Za-z0-9_-]{35}|(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9]))/g,
  },
  { pattern: /(?<![A-Za-z0-9_-])()(eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)/g },
  {
    pattern:
      /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s/?#@:]{1,200}:)([^\s/?#@]{1,200})(?=@)/g,
  },
];

const PEM_BEGIN = '-----BEGIN ';
const PEM_END = '-----END ';
const PEM_DASHES = '-----';

/** One redaction of one event: its rules, and every value hidden so far. */
interface Pass {
  rules: Rules;
  secrets: Set<string>;
}

function startPass(redact: PolicyRedact | undefined): Pass {
  return { rules: compileRules(redact), secrets: new Set() };
}

/** Remembers what was hidden, so the other strings of the event lose it too. */
function collect(pass: Pass, value: unknown): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_SCRUBBED_LENGTH && !REDACTED.includes(value)) pass.secrets.add(value);
  } else if (typeof value === 'number' || typeof value === 'bigint') {
    collect(pass, String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) collect(pass, item);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) collect(pass, item);
  }
}

function isSecretKey(pass: Pass, key: string): boolean {
  const normalized = normalizeKey(key);
  return pass.rules.keys.some((pattern) => globMatches(pattern, normalized));
}

/** PEM private key bodies, found by plain search: hidden up to their END line, or to the end. */
function redactPrivateKeys(pass: Pass, text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, from);
    if (begin < 0) break;
    const labelAt = begin + PEM_BEGIN.length;
    const dashes = text.slice(labelAt, labelAt + 80).indexOf(PEM_DASHES);
    if (dashes < 0 || !text.slice(labelAt, labelAt + dashes).includes('PRIVATE KEY')) {
      out += text.slice(from, labelAt);
      from = labelAt;
      continue;
    }
    const bodyAt = labelAt + dashes + PEM_DASHES.length;
    const end = text.indexOf(PEM_END, bodyAt);
    const bodyEnd = end < 0 ? text.length : end;
    collect(pass, text.slice(bodyAt, bodyEnd).trim());
    out += `${text.slice(from, bodyAt)}${REDACTED}`;
    from = bodyEnd;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A string with its secret-looking values hidden. */
function redactText(pass: Pass, text: string): string {
  let out = redactPrivateKeys(pass, text);
  for (const { pattern, isCredential } of VALUE_PATTERNS) {
    out = out.replace(pattern, (match: string, kept: string, secret: string) => {
      if (isCredential !== undefined && !isCredential(secret)) return match;
      collect(pass, secret);
      return `${kept}${REDACTED}`;
    });
  }
  return out;
}

/** Agents' data: the rules' keys and paths hide whole values, value patterns the rest. */
function redactTree(pass: Pass, value: unknown, live: readonly PathRule[], depth: number): unknown {
  if (typeof value === 'string') return redactText(pass, value);
  const child = (key: string, item: unknown, named: boolean): unknown => {
    const next = live.filter((rule) => {
      const segment = rule.segments[depth];
      return segment === '*' || segment === key;
    });
    if (next.some((rule) => rule.segments.length === depth + 1) || (named && isSecretKey(pass, key))) {
      collect(pass, item);
      return REDACTED;
    }
    return redactTree(pass, item, next, depth + 1);
  };
  if (Array.isArray(value)) return value.map((item, i) => child(String(i), item, false));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, child(key, item, true)]));
}

function redactRoot(pass: Pass, value: unknown, root: RedactionRoot): unknown {
  const live = pass.rules.paths.filter((rule) => rule.root === root);
  return redactTree(pass, value, live, 0);
}

/** Any other field: only secret-looking values are hidden. */
function redactValues(pass: Pass, value: unknown): unknown {
  if (typeof value === 'string') return redactText(pass, value);
  if (Array.isArray(value)) return value.map((item) => redactValues(pass, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValues(pass, item)]));
}

/** Cuts every hidden value out of every string, longest first. */
function scrub<T>(pass: Pass, value: T): T {
  if (pass.secrets.size === 0) return value;
  const secrets = [...pass.secrets].sort((a, b) => b.length - a.length);
  return scrubValue(value, secrets) as T;
}

const SCRUB_ROUNDS = 4;

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (let round = 0; round < SCRUB_ROUNDS; round++) {
    let changed = false;
    for (const secret of secrets) {
      if (!out.includes(secret)) continue;
      out = out.split(secret).join(REDACTED);
      changed = true;
    }
    if (!changed) return out;
  }
  // Cutting kept forming new copies at the seams; nothing of the string is kept.
  return REDACTED;
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, secrets)]));
}

/** Options of `redactForAudit`. */
export interface RedactForAuditOptions {
  /**
   * The fields that hold agents' data, and the policy path root each is read against; key patterns
   * and paths apply inside them, value patterns everywhere.
   * @default { args: 'args', context: 'context' }
   */
  roots?: Readonly<Record<string, RedactionRoot>>;
}

const DEFAULT_ROOTS: Readonly<Record<string, RedactionRoot>> = { args: 'args', context: 'context' };

/**
 * Part of an audit event with secrets hidden: under a secret key name (built-in or the policy's),
 * at a path the policy names, or looking like a bearer token, private key or known API key, a value
 * becomes `[redacted]`, and every other string of the record loses each hidden value of 4 or more
 * characters.
 * @example redactForAudit({ args: { path: 'x', api_key: 'sk-live-123' } }, undefined).args // { path: 'x', api_key: '[redacted]' }
 */
export function redactForAudit<T extends Record<string, unknown>>(
  record: T,
  redact: PolicyRedact | undefined,
  options: RedactForAuditOptions = {},
): { [K in keyof T]: unknown } {
  const pass = startPass(redact);
  const roots = options.roots ?? DEFAULT_ROOTS;
  const out = Object.fromEntries(
    Object.entries(record).map(([field, value]) => {
      const root = Object.hasOwn(roots, field) ? roots[field] : undefined;
      return [field, root === undefined ? redactValues(pass, value) : redactRoot(pass, value, root)];
    }),
  );
  return scrub(pass, out) as { [K in keyof T]: unknown };
}

/** A briefing as an audit event keeps it: its text without the sections it was rendered from, option ids only. */
export type AuditedBriefing = Omit<Briefing, 'sections' | 'options'> & { options: string[] };

/** What a reviewer of a gate saw, with secrets hidden: what `gate.opened` records. */
export interface GateAuditView {
  title: string;
  tool: string | null;
  operation: string | null;
  args: Record<string, unknown>;
  context: Record<string, unknown>;
  /** The Summary of Action, built from the redacted gate; it names the agent by id. */
  briefing: AuditedBriefing;
  /** The caller's other fields written from the request, with secret-looking values hidden. */
  extra: Record<string, unknown>;
}

/** Options of `gateAuditView`. */
export interface GateAuditViewOptions {
  /** How the gate's title was made from its action, when it was: the title is then made again from the redacted action. */
  titleOf?: ((action: Action) => string | undefined) | undefined;
  /** Other fields of the event written from the request (a rule's reason, say). @default {} */
  extra?: Record<string, unknown>;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

// A briefing shows at most the first 10,000 characters of a value; the rest only costs a scan for hidden characters.
const BRIEFING_TEXT_LIMIT = 20_000;
// Outside printable ASCII and line breaks: a string that may hold a hidden character, kept whole.
const MAY_HIDE = /[^\x20-\x7e\t\n\r]/;

/** The agent's data as far as a briefing reads it: long plain strings cut where it stops reading. */
function briefingInput(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > BRIEFING_TEXT_LIMIT && !MAY_HIDE.test(value)
      ? value.slice(0, BRIEFING_TEXT_LIMIT)
      : value;
  }
  if (Array.isArray(value)) return value.map(briefingInput);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, briefingInput(item)]));
}

function auditedBriefing(briefing: Briefing): AuditedBriefing {
  const { sections: _sections, options, ...rest } = briefing;
  return { ...rest, options: options.map((option) => option.id) };
}

/**
 * The tool, arguments, context and Summary of Action a reviewer of `gate` saw, redacted as
 * `redactForAudit` does; the briefing is built from the redacted gate, so it holds no hidden value.
 * @example gateAuditView(gate, policy.redact).args
 */
export function gateAuditView(
  gate: Gate,
  redact: PolicyRedact | undefined,
  options: GateAuditViewOptions = {},
): GateAuditView {
  const pass = startPass(redact);
  const action = gate.action;
  const args = asRecord(redactRoot(pass, action?.args ?? {}, 'args'));
  const context = asRecord(redactRoot(pass, gate.context, 'context'));
  const operation = action?.operation === undefined ? undefined : redactText(pass, action.operation);
  const redactedAction: Action | null =
    action === null ? null : { ...action, args, ...(operation === undefined ? {} : { operation }) };
  const derived = redactedAction === null ? undefined : options.titleOf?.(redactedAction);
  const title = derived ?? redactText(pass, gate.title);
  // The text comes from the redacted gate; the options are the ones the reviewer was offered, read from
  // the action itself, as what is safe to approve always depends on what redaction hides (a path, a command).
  const briefing = buildBriefing(
    {
      ...gate,
      title,
      action: redactedAction === null ? null : { ...redactedAction, args: asRecord(briefingInput(args)) },
      context: asRecord(briefingInput(context)),
    },
    {},
    undefined,
    briefingOptions(gate),
  );
  return scrub(pass, {
    title,
    tool: action?.tool === undefined ? null : redactText(pass, action.tool),
    operation: operation ?? null,
    args,
    context,
    briefing: redactValues(pass, auditedBriefing(briefing)) as AuditedBriefing,
    extra: asRecord(redactValues(pass, options.extra ?? {})),
  });
}
