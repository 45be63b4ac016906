import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from now, either way (Slack's own advice). */
export const SLACK_REQUEST_WINDOW_MS = 5 * 60_000;

export type SignatureCheck = { ok: true; signature: string } | { ok: false; reason: string };

/** The v0 signature Slack sends: HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret, hex. */
export function slackSignature(secret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

interface SignedRequest {
  secret: string;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: string;
  now: number;
}

/** Checks X-Slack-Signature (constant time) and X-Slack-Request-Timestamp (within five minutes). */
export function verifySlackSignature(request: SignedRequest): SignatureCheck {
  const { timestamp, signature } = request;
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    return { ok: false, reason: 'X-Slack-Request-Timestamp is missing or not a number of seconds' };
  }
  if (Math.abs(request.now - Number(timestamp) * 1000) > SLACK_REQUEST_WINDOW_MS) {
    return { ok: false, reason: 'X-Slack-Request-Timestamp is more than 5 minutes from now' };
  }
  if (signature === undefined || !/^v0=[0-9a-f]{64}$/.test(signature)) {
    return { ok: false, reason: 'X-Slack-Signature is missing or not a v0 signature' };
  }
  const expected = Buffer.from(slackSignature(request.secret, timestamp, request.rawBody));
  if (!timingSafeEqual(expected, Buffer.from(signature))) {
    return { ok: false, reason: 'X-Slack-Signature does not match the body' };
  }
  return { ok: true, signature };
}
