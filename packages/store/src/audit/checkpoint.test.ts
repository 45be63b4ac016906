import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fc from 'fast-check';
import { type AuditEvent, canonicalJson } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import type { SignedCheckpoint } from '../types.js';
import { auditKeyId, CHECKPOINT_KIND, checkpointStatement, startStatement } from './checkpoint.js';
import { verifyAuditExport } from './export.js';
import { auditHash, GENESIS_HASH } from './hash.js';
import { verifyAuditChain } from './verify.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const keyId = auditKeyId(publicKey);

function signed(seq: number, hash: string, at: number, key: KeyObject = privateKey): SignedCheckpoint {
  const unsigned = { seq, hash, at, keyId };
  return {
    ...unsigned,
    signature: sign(null, Buffer.from(checkpointStatement(unsigned)), key).toString('base64'),
  };
}

type Fields = Omit<AuditEvent, 'prevHash' | 'hash'>;

function rechain(fields: Fields[], startHash = GENESIS_HASH): AuditEvent[] {
  let previous = startHash;
  return fields.map((f) => {
    const hash = auditHash(previous, f);
    const event = { ...f, prevHash: previous, hash };
    previous = hash;
    return event;
  });
}

/** `length` events, with a signed checkpoint event after every `every`-th; returns them and the heads. */
function signedTrail(length: number, every = 3): { events: AuditEvent[]; heads: SignedCheckpoint[] } {
  const events: AuditEvent[] = [];
  const heads: SignedCheckpoint[] = [];
  let previous = GENESIS_HASH;
  for (let seq = 1; seq <= length; seq += 1) {
    const last = events.at(-1);
    const isCheckpoint = seq % (every + 1) === 0 && last !== undefined;
    const head = isCheckpoint ? signed(last.seq, last.hash, 5_000 + seq) : null;
    if (head) heads.push(head);
    const fields: Fields = head
      ? {
          seq,
          id: `evt_${seq}`,
          at: 1_000 + seq,
          kind: CHECKPOINT_KIND,
          actor: 'system:audit',
          subject: null,
          data: { ...head },
        }
      : { seq, id: `evt_${seq}`, at: 1_000 + seq, kind: 'test', actor: 'a', subject: null, data: { seq } };
    const [event] = rechain([fields], previous) as [AuditEvent];
    events.push(event);
    previous = event.hash;
  }
  return { events, heads };
}

const strip = (events: AuditEvent[]): Fields[] => events.map(({ prevHash: _p, hash: _h, ...f }) => f);

describe('auditHash', () => {
  it('is sha256 of the previous hash and the canonical JSON of the hashed fields, for any event', () => {
    const field = fc.record({
      seq: fc.integer(),
      id: fc.string(),
      at: fc.integer(),
      kind: fc.string(),
      actor: fc.string(),
      subject: fc.option(fc.string()),
      data: fc.dictionary(fc.string(), fc.jsonValue()),
    });
    fc.assert(
      fc.property(field, fc.stringMatching(/^[0-9a-f]{64}$/), (event, previous) => {
        const expected = createHash('sha256').update(previous).update(canonicalJson(event)).digest('hex');
        expect(auditHash(previous, event)).toBe(expected);
      }),
    );
  });
});

describe('signed checkpoints', () => {
  it('counts every signed checkpoint in the chain and in the heads', async () => {
    const { events, heads } = signedTrail(12);
    expect(await verifyAuditChain(events, { publicKey, heads })).toMatchObject({
      ok: true,
      count: 12,
      checkpoints: 6,
      lastCheckpoint: { seq: 11 },
    });
  });

  it('finds any edited event before a checkpoint even when the chain was recomputed', async () => {
    const plainEvent = fc.integer({ min: 1, max: 11 }).filter((seq) => seq % 4 !== 0);
    await fc.assert(
      fc.asyncProperty(plainEvent, fc.jsonValue(), async (target, value) => {
        const { events, heads } = signedTrail(12);
        const edited = strip(events).map((f) => (f.seq === target ? { ...f, data: { edited: value } } : f));
        const firstCovering = heads.find((head) => head.seq >= target) as SignedCheckpoint;
        const result = await verifyAuditChain(rechain(edited), { publicKey, heads });
        expect(result).toMatchObject({ ok: false, seq: firstCovering.seq, reason: 'checkpoint_mismatch' });
        // Without the heads, the checkpoint event right after it still catches the rewrite.
        const chainOnly = await verifyAuditChain(rechain(edited), { publicKey });
        expect(chainOnly).toMatchObject({ ok: false });
      }),
      { numRuns: 40 },
    );
  });

  it('finds a cut tail from the published heads, and a forged head or checkpoint by its signature', async () => {
    const { events, heads } = signedTrail(12);
    expect(await verifyAuditChain(events.slice(0, 9), { publicKey, heads })).toMatchObject({
      ok: false,
      seq: 11,
      reason: 'truncated',
      checkpoint: { seq: 11, source: 'heads' },
    });
    const forgedHead = signed(3, events[2]?.hash ?? '', 1, other.privateKey);
    expect(await verifyAuditChain(events, { publicKey, heads: [forgedHead] })).toMatchObject({
      ok: false,
      seq: 3,
      reason: 'bad_signature',
    });
    const forged = strip(events).map((f) =>
      f.seq === 8 ? { ...f, data: { ...signed(7, events[6]?.hash ?? '', 1, other.privateKey) } } : f,
    );
    expect(await verifyAuditChain(rechain(forged), { publicKey })).toMatchObject({
      ok: false,
      seq: 8,
      reason: 'bad_signature',
      checkpoint: { source: 'chain' },
    });
  });

  it('trusts a retention start only with its own signature, never a checkpoint signature', async () => {
    const { events } = signedTrail(12);
    const rest = events.slice(5);
    const base = { seq: 5, hash: events[4]?.hash ?? '', truncatedAt: 9, removed: 5, keyId };
    const startSignature = sign(null, Buffer.from(startStatement(base)), privateKey).toString('base64');
    expect(
      await verifyAuditChain(rest, { publicKey, start: { ...base, signature: startSignature } }),
    ).toMatchObject({
      ok: true,
      count: 7,
    });
    expect(await verifyAuditChain(rest, { publicKey, start: { ...base, signature: null } })).toMatchObject({
      ok: false,
      seq: 5,
      reason: 'unsigned_start',
    });
    const replayed = signed(5, base.hash, 9).signature;
    expect(
      await verifyAuditChain(rest, { publicKey, start: { ...base, signature: replayed } }),
    ).toMatchObject({
      ok: false,
      seq: 5,
      reason: 'bad_signature',
      checkpoint: { source: 'start' },
    });
  });

  it('verifies an export with its checkpoint records, line by line, the same as the chain', async () => {
    const { events, heads } = signedTrail(12);
    const text = events.map((e) => JSON.stringify(e)).join('\n');
    expect(await verifyAuditExport(text, { publicKey, heads })).toEqual(
      await verifyAuditChain(events, { publicKey, heads }),
    );
    const cut = events
      .slice(0, 10)
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(await verifyAuditExport(cut, { publicKey, heads })).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });
});
