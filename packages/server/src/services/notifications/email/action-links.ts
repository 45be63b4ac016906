import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What an emailed decision link is bound to. */
export interface ActionLinkClaims {
  /** Random id; a used link's id is recorded so it works once. */
  id: string;
  gateId: string;
  userId: string;
  option: string;
  /** The gate's payload hash when the email was sent ('' for a gate without one). */
  payloadHash: string;
  /** Epoch ms after which the link is refused. */
  expiresAt: number;
}

/** Why a link was refused, in words the page can show as they are. */
/** The path of a decision link (the token is URL-safe; it is encoded all the same). */
export function actionLinkPath(token: string): string {
  return `/v1/email-actions?token=${encodeURIComponent(token)}`;
}

export type ActionLinkProblem = 'malformed' | 'tampered' | 'expired';

const PURPOSE = 'gatehouse-email-action/1\n';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,2048}\.[A-Za-z0-9_-]{43}$/;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(PURPOSE).update(body).digest();
}

/** Signs the claims into a URL-safe token: base64url(JSON) '.' base64url(HMAC-SHA256). */
export function signActionLink(secret: string, claims: ActionLinkClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** A fresh link id. */
export function newActionLinkId(): string {
  return randomBytes(18).toString('base64url');
}

function readClaims(value: unknown): ActionLinkClaims | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const texts = ['id', 'gateId', 'userId', 'option', 'payloadHash'] as const;
  if (!texts.every((key) => typeof v[key] === 'string')) return null;
  if (typeof v.expiresAt !== 'number' || !Number.isFinite(v.expiresAt)) return null;
  return {
    id: v.id as string,
    gateId: v.gateId as string,
    userId: v.userId as string,
    option: v.option as string,
    payloadHash: v.payloadHash as string,
    expiresAt: v.expiresAt,
  };
}

/** Checks the signature first (in constant time), then the expiry; never trusts an unsigned field. */
export function verifyActionLink(
  secret: string,
  token: string,
  now: number,
): { ok: true; claims: ActionLinkClaims } | { ok: false; problem: ActionLinkProblem } {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, problem: 'malformed' };
  const [body = '', signature = ''] = token.split('.');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, problem: 'tampered' };
  let claims: ActionLinkClaims | null = null;
  try {
    claims = readClaims(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    claims = null;
  }
  if (claims === null) return { ok: false, problem: 'malformed' };
  if (now >= claims.expiresAt) return { ok: false, problem: 'expired' };
  return { ok: true, claims };
}
