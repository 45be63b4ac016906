import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slackSignature, verifySlackSignature } from './slack-signature.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const NOW = 1_700_000_000_000;
const timestamp = String(NOW / 1000);

describe('verifySlackSignature', () => {
  it('accepts the v0 HMAC of the exact body within the window', () => {
    const rawBody = 'payload=%7B%22type%22%3A%22block_actions%22%7D';
    const signature = slackSignature(SECRET, timestamp, rawBody);
    expect(verifySlackSignature({ secret: SECRET, timestamp, signature, rawBody, now: NOW })).toEqual({
      ok: true,
      signature,
    });
  });

  it.each([
    ['a timestamp six minutes old', String(NOW / 1000 - 360), /5 minutes/],
    ['a timestamp six minutes ahead', String(NOW / 1000 + 360), /5 minutes/],
    ['no timestamp', undefined, /Timestamp is missing/],
    ['a timestamp that is not a number', '17e8', /Timestamp is missing/],
  ])('refuses %s', (_name, stamp, reason) => {
    const signature = slackSignature(SECRET, stamp ?? '0', 'payload=x');
    const check = verifySlackSignature({
      secret: SECRET,
      timestamp: stamp,
      signature,
      rawBody: 'payload=x',
      now: NOW,
    });
    expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('refuses a missing, malformed or wrong-secret signature', () => {
    const base = { secret: SECRET, timestamp, rawBody: 'payload=x', now: NOW };
    expect(verifySlackSignature({ ...base, signature: undefined }).ok).toBe(false);
    expect(verifySlackSignature({ ...base, signature: 'v1=abc' }).ok).toBe(false);
    const forged = slackSignature('another secret', timestamp, 'payload=x');
    expect(verifySlackSignature({ ...base, signature: forged })).toMatchObject({
      ok: false,
      reason: /does not match/,
    });
  });

  it('refuses any change to a signed body', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ minLength: 1, maxLength: 5 }), (body, extra) => {
        const signature = slackSignature(SECRET, timestamp, body);
        const changed = verifySlackSignature({
          secret: SECRET,
          timestamp,
          signature,
          rawBody: body + extra,
          now: NOW,
        });
        expect(changed.ok).toBe(false);
      }),
    );
  });
});
