/** The JSON body of every webhook request Gatehouse sends. */
export interface WebhookEvent {
  /** Stable event id, also in the `Gatehouse-Event-Id` header: the same on every retry and redelivery. */
  id: string;
  /** E.g. `gate.opened`, `gate.decided`, `run.paused`, `confidence.escalated`. */
  type: string;
  /** Epoch ms of the change. */
  createdAt: number;
  /** Who made the change: `user:<id>`, `agent:<id>` or `system:<job>`. */
  actor: string;
  /** The gate or run it happened to. */
  subject: string | null;
  /** The facts the audit trail records for it. */
  data: Record<string, unknown>;
}

/** Why a webhook request was refused. */
export type WebhookVerificationFailure =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'outside_replay_window';

/** The result of checking a webhook request. */
export type WebhookVerification =
  | { ok: true; timestamp: number }
  | { ok: false; reason: WebhookVerificationFailure; message: string };

/** What `verifyWebhookSignature` checks. */
export interface VerifyWebhookOptions {
  /** The raw request body exactly as received, before any JSON parsing. */
  body: string | Uint8Array;
  /** The `Gatehouse-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
  signature: string | null | undefined;
  /** The webhook's secret (`whsec_…`), as shown when the webhook was created. */
  secret: string;
  /** How far the signed time may be from now, either way. @default 300 */
  toleranceSeconds?: number;
  /** Now, in epoch ms. @default Date.now() */
  now?: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

function refuse(reason: WebhookVerificationFailure, message: string): WebhookVerification {
  return { ok: false, reason, message };
}

function parseHeader(header: string): { timestamp: number; macs: string[] } | null {
  let timestamp: number | null = null;
  const macs: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && HEX_SHA256.test(value)) macs.push(value);
  }
  return timestamp === null || macs.length === 0 ? null : { timestamp, macs };
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function signedContent(timestamp: number, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const rest = typeof body === 'string' ? encoder.encode(body) : body;
  const content = new Uint8Array(prefix.length + rest.length);
  content.set(prefix);
  content.set(rest, prefix.length);
  return content;
}

/**
 * Checks that a webhook request came from Gatehouse and is recent: the HMAC-SHA256 of
 * `"<t>.<body>"` with the webhook's secret must match a `v1` value of the `Gatehouse-Signature`
 * header (compared in constant time), and `t` must be within `toleranceSeconds` of now. Uses only
 * fetch-era Web APIs (WebCrypto), so it runs in Node, Deno, Bun, workers and browsers.
 *
 * @example
 * const body = await request.text();
 * const check = await verifyWebhookSignature({
 *   body,
 *   signature: request.headers.get('gatehouse-signature'),
 *   secret: process.env.GATEHOUSE_WEBHOOK_SECRET,
 * });
 * if (!check.ok) return new Response(check.message, { status: 400 });
 * const event = JSON.parse(body) as WebhookEvent;
 */
export async function verifyWebhookSignature(options: VerifyWebhookOptions): Promise<WebhookVerification> {
  if (!options.signature) return refuse('missing_signature', 'the Gatehouse-Signature header is missing');
  const parsed = parseHeader(options.signature);
  if (parsed === null) {
    return refuse('malformed_signature', 'the Gatehouse-Signature header is not t=<seconds>,v1=<hex>');
  }
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const content = signedContent(parsed.timestamp, options.body);
  let matched = false;
  for (const mac of parsed.macs) {
    // WebCrypto's verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, hexBytes(mac), content)) matched = true;
  }
  if (!matched) return refuse('signature_mismatch', 'the signature does not match this body and secret');
  const tolerance = options.toleranceSeconds ?? 300;
  const age = Math.abs((options.now ?? Date.now()) / 1000 - parsed.timestamp);
  if (age > tolerance) {
    return refuse(
      'outside_replay_window',
      `the request was signed ${Math.round(age)} s away from now (allowed: ${tolerance} s); refuse it as a replay`,
    );
  }
  return { ok: true, timestamp: parsed.timestamp };
}
