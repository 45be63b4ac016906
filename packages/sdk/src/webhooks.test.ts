import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from './webhooks.js';

const secret = 'whsec_test_secret';
const body = JSON.stringify({ id: 'evt_1', type: 'gate.opened', data: { title: 'Zürich 🚀' } });
const now = 1_700_000_000_000;
const t = now / 1000;

function sign(timestamp: number, content = body, key = secret): string {
  return createHmac('sha256', key).update(`${timestamp}.${content}`).digest('hex');
}

describe('verifyWebhookSignature', () => {
  it('accepts a request signed with the secret within the window, as text or bytes', async () => {
    const signature = `t=${t},v1=${sign(t)}`;
    expect(await verifyWebhookSignature({ body, signature, secret, now })).toEqual({
      ok: true,
      timestamp: t,
    });
    const bytes = new TextEncoder().encode(body);
    expect(await verifyWebhookSignature({ body: bytes, signature, secret, now })).toMatchObject({ ok: true });
  });

  it('accepts when any of several v1 values matches', async () => {
    const signature = `t=${t},v1=${'0'.repeat(64)},v1=${sign(t)}`;
    expect(await verifyWebhookSignature({ body, signature, secret, now })).toMatchObject({ ok: true });
  });

  it.each([
    ['a changed body', { body: body.replace('opened', 'decided') }, 'signature_mismatch'],
    ['another secret', { secret: 'whsec_other' }, 'signature_mismatch'],
    ['no header', { signature: null }, 'missing_signature'],
    ['a header without v1', { signature: `t=${t}` }, 'malformed_signature'],
    ['a header without t', { signature: `v1=${sign(t)}` }, 'malformed_signature'],
    ['a v1 that is not hex SHA-256', { signature: `t=${t},v1=abc` }, 'malformed_signature'],
  ])('refuses %s', async (_label, change, reason) => {
    const options = { body, signature: `t=${t},v1=${sign(t)}`, secret, now, ...change };
    expect(await verifyWebhookSignature(options)).toMatchObject({ ok: false, reason });
  });

  it('refuses a genuine request older or newer than the replay window (5 minutes by default)', async () => {
    const old = t - 301;
    const stale = await verifyWebhookSignature({ body, signature: `t=${old},v1=${sign(old)}`, secret, now });
    expect(stale).toMatchObject({ ok: false, reason: 'outside_replay_window' });
    const future = t + 301;
    const early = await verifyWebhookSignature({
      body,
      signature: `t=${future},v1=${sign(future)}`,
      secret,
      now,
    });
    expect(early).toMatchObject({ ok: false, reason: 'outside_replay_window' });
    const edge = t - 299;
    const inside = await verifyWebhookSignature({
      body,
      signature: `t=${edge},v1=${sign(edge)}`,
      secret,
      now,
    });
    expect(inside).toMatchObject({ ok: true });
    const wider = await verifyWebhookSignature({
      body,
      signature: `t=${old},v1=${sign(old)}`,
      secret,
      now,
      toleranceSeconds: 600,
    });
    expect(wider).toMatchObject({ ok: true });
  });
});
