import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slackSignature, verifySlackSignature } from './slack-signature.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const NOW = 1_700_000_000_000;
const timestamp = String(NOW / 1000);

/** The example request of Slack's "Verifying requests from Slack", with the signature they publish. */
const SLACK_EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  rawBody:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
  now: 1531420618 * 1000,
};

describe("Slack's published example", () => {
  it('signs the example request as Slack does', () => {
    const { secret, timestamp, rawBody, signature } = SLACK_EXAMPLE;
    expect(slackSignature(secret, timestamp, rawBody)).toBe(signature);
  });

  it('accepts the example request at its own timestamp', () => {
    expect(verifySlackSignature(SLACK_EXAMPLE)).toEqual({ ok: true, signature: SLACK_EXAMPLE.signature });
  });

  it.each([
    ['secret', { secret: '8f742231b10e8888abcd99yyyzzz85a6' }],
    ['timestamp', { timestamp: '1531420619', now: 1531420619 * 1000 }],
    ['body', { rawBody: SLACK_EXAMPLE.rawBody.replace('text=', 'text=x') }],
    ['signature', { signature: SLACK_EXAMPLE.signature.replace(/3$/, '4') }],
  ])('refuses the example with another %s', (_part, change) => {
    expect(verifySlackSignature({ ...SLACK_EXAMPLE, ...change })).toMatchObject({
      ok: false,
      reason: /does not match/,
    });
  });
});

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
