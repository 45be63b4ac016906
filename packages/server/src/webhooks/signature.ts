import { createHmac, randomBytes } from 'node:crypto';

/** A new webhook secret: 256 random bits, shown once, kept to sign with. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Gatehouse-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * keyed with the secret exactly as shown at creation. A fresh `t` on every attempt lets
 * receivers refuse replays of old requests.
 */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
