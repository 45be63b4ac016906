import { canonicalJson } from './canonical-json.js';
import { canonicalJsonV2 } from './canonical-json-v2.js';
import { WHITELIST_DAYS } from './limits.js';
import { revealText } from './reveal-text.js';

/** The first line of a signed decision text in canonical JSON v1, the default; a new layout gets a new version. */
export const SIGNED_DECISION_PREFIX = 'gatehouse-decision-v2\n';

/** The first line of a signed decision text in canonical JSON v2 (RFC 8785): the same fields. */
export const SIGNED_DECISION_V3_PREFIX = 'gatehouse-decision-v3\n';

/**
 * Which canonical JSON a signed decision text is written in (docs/canonical-json.md): 1, frozen
 * and the default, behind `gatehouse-decision-v2`; 2, RFC 8785, behind `gatehouse-decision-v3`.
 */
export type CanonicalJsonVersion = 1 | 2;

/** Every canonical JSON version a verifier accepts a signed decision in, the default first. */
export const SIGNED_DECISION_VERSIONS: readonly CanonicalJsonVersion[] = [1, 2];

/** The first line of the text that proves a person holds the private half of a key they register. */
export const KEY_PROOF_PREFIX = 'gatehouse-key-proof-v1\n';

/** What a signed decision binds: the gate, the option, the exact action and every word sent with it. */
export interface SignedDecisionFields {
  gateId: string;
  option: string;
  payloadHash: string | null;
  reason?: string | null | undefined;
  feedback?: string | null | undefined;
  instructions?: string | null | undefined;
  /** Only for Whitelist on a finding (`decisionWhitelistScope`): the entry's scope as the person chose it. */
  whitelist?: SignedWhitelistScope | undefined;
}

/** The scope of the entry a Whitelist decision creates, as signed: `path` null means the finding's own file. */
export interface SignedWhitelistScope {
  path: string | null;
  agents: 'this' | 'every';
  expiresInDays: number;
}

/**
 * The whitelist scope a decision signs: for Whitelist on a finding's false_positive_override gate
 * (not a re-review of an entry), the person's choice with its defaults filled in; otherwise
 * undefined, and the signed text is exactly what it was before scopes were signed.
 * @example
 * decisionWhitelistScope(gate, 'whitelist', { path: 'src/legacy/**' }) // { path: 'src/legacy/**', agents: 'this', expiresInDays: 90 }
 */
export function decisionWhitelistScope(
  gate: { type: string; context: Record<string, unknown> },
  option: string,
  choice:
    | { path?: string | undefined; agents?: 'this' | 'every' | undefined; expiresInDays?: number | undefined }
    | undefined,
): SignedWhitelistScope | undefined {
  if (option !== 'whitelist' || gate.type !== 'false_positive_override') return undefined;
  if (typeof gate.context.whitelistReview === 'string') return undefined;
  return {
    path: choice?.path?.trim() || null,
    agents: choice?.agents ?? 'this',
    expiresInDays: choice?.expiresInDays ?? WHITELIST_DAYS,
  };
}

// The server keeps free text with hidden characters shown as markers, so the signed words are the stored words.
function clean(text: string | null | undefined): string | null {
  return text === undefined || text === null ? null : revealText(text, { multiline: true });
}

/**
 * The exact text a signed decision's Ed25519 signature covers: a version line, then canonical JSON
 * of the gate id, option, payload hash, reason, feedback and instructions (absent ones as null),
 * and for a Whitelist decision on a finding its `whitelist` scope (no key at all for any other).
 * `canonical` picks the JSON: v1 (`gatehouse-decision-v2`) or RFC 8785 (`gatehouse-decision-v3`).
 * @default canonical 1
 * @example
 * signedDecisionText({ gateId: 'gate_1', option: 'approve', payloadHash: null, reason: 'ok' })
 */
export function signedDecisionText(
  fields: SignedDecisionFields,
  canonical: CanonicalJsonVersion = 1,
): string {
  const body = {
    gateId: fields.gateId,
    option: fields.option,
    payloadHash: fields.payloadHash,
    reason: clean(fields.reason),
    feedback: clean(fields.feedback),
    instructions: clean(fields.instructions),
    ...(fields.whitelist === undefined ? {} : { whitelist: { ...fields.whitelist } }),
  };
  return canonical === 2
    ? `${SIGNED_DECISION_V3_PREFIX}${canonicalJsonV2(body)}`
    : `${SIGNED_DECISION_PREFIX}${canonicalJson(body)}`;
}

/**
 * The text a person signs with a new key to register it: the server's one-time challenge and
 * their own id, so a proof made for one person or one challenge works for no other.
 */
export function keyProofText(fields: { challenge: string; userId: string }): string {
  return `${KEY_PROOF_PREFIX}${canonicalJson({ challenge: fields.challenge, userId: fields.userId })}`;
}
