import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { payloadText } from 'gatehouse-hitl-protocol/rules';
import { verifyWebhookSignature } from 'gatehouse-hitl-sdk';
import { describe, expect, it } from 'vitest';

/** The vectors the Python tests check too, so both SDKs are held to the same answers. */
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`./tests/vectors/${name}`, import.meta.url), 'utf8'));

interface WebhookCase {
  label: string;
  signature: string | null;
  body?: string;
  secret?: string;
  toleranceSeconds?: number;
  expect: string;
}

describe('the vectors shared with the Python SDK', () => {
  const canonical = read('canonical.json') as { cases: { args: string; text: string; hash: string }[] };
  it.each(canonical.cases)('gives the protocol’s payload text and hash for $args', ({ args, text, hash }) => {
    const actual = payloadText({ tool: 'probe', args: JSON.parse(args) });
    expect(actual).toBe(text);
    expect(createHash('sha256').update(actual).digest('hex')).toBe(hash);
  });

  const webhooks = read('webhooks.json') as {
    secret: string;
    body: string;
    nowSeconds: number;
    cases: WebhookCase[];
  };
  it.each(webhooks.cases)('webhook vector: $label → $expect (TypeScript SDK)', async (vector) => {
    const check = await verifyWebhookSignature({
      body: vector.body ?? webhooks.body,
      signature: vector.signature,
      secret: vector.secret ?? webhooks.secret,
      now: webhooks.nowSeconds * 1000,
      ...(vector.toleranceSeconds === undefined ? {} : { toleranceSeconds: vector.toleranceSeconds }),
    });
    if (vector.expect === 'ok') expect(check).toMatchObject({ ok: true });
    else expect(check).toMatchObject({ ok: false, reason: vector.expect });
  });

  it('holds signatures made by the documented scheme (HMAC-SHA256 of "<t>.<body>")', () => {
    for (const vector of webhooks.cases.filter((c) => c.expect === 'ok')) {
      const [t, ...macs] = (vector.signature ?? '').split(',');
      const mac = createHmac('sha256', webhooks.secret)
        .update(`${t?.slice(2)}.${webhooks.body}`)
        .digest('hex');
      expect(macs).toContain(`v1=${mac}`);
    }
  });
});
