import type { AuditEvent } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { verifyAuditExport } from './export.js';
import { auditHash, GENESIS_HASH } from './hash.js';
import { verifyAuditChain } from './verify.js';

function chain(length: number, start = { seq: 0, hash: GENESIS_HASH }): AuditEvent[] {
  const events: AuditEvent[] = [];
  let previous = start.hash;
  for (let seq = start.seq + 1; seq <= start.seq + length; seq += 1) {
    const fields = {
      seq,
      id: `evt_${seq}`,
      at: 1_000 + seq,
      kind: 'test',
      actor: 'a',
      subject: null,
      data: { seq },
    };
    const hash = auditHash(previous, fields);
    events.push({ ...fields, prevHash: previous, hash });
    previous = hash;
  }
  return events;
}

const unsigned = { ok: true, checkpoints: 0, lastCheckpoint: null } as const;
const lines = (events: AuditEvent[]) => events.map((event) => JSON.stringify(event));

describe('verifyAuditChain', () => {
  it('accepts an intact chain and an empty one', async () => {
    const events = chain(4);
    expect(await verifyAuditChain(events)).toEqual({ ...unsigned, count: 4, lastHash: events[3]?.hash });
    expect(await verifyAuditChain([])).toEqual({ ...unsigned, count: 0, lastHash: null });
  });

  it('hashes the data canonically, whatever the key order', () => {
    const base = { seq: 1, id: 'evt_1', at: 1, kind: 'k', actor: 'a', subject: null };
    expect(auditHash(GENESIS_HASH, { ...base, data: { a: 1, b: [1, { d: 2, c: 3 }] } })).toBe(
      auditHash(GENESIS_HASH, { ...base, data: { b: [1, { c: 3, d: 2 }], a: 1 } }),
    );
  });

  it.each([
    [
      'an edited field',
      (e: AuditEvent[]) => e.map((x) => (x.seq === 2 ? { ...x, actor: 'mallory' } : x)),
      2,
      'hash_mismatch',
    ],
    [
      'a recomputed hash',
      (e: AuditEvent[]) => e.map((x) => (x.seq === 2 ? { ...x, hash: 'f'.repeat(64) } : x)),
      2,
      'hash_mismatch',
    ],
    ['a deleted event', (e: AuditEvent[]) => e.filter((x) => x.seq !== 2), 2, 'gap'],
    ['two swapped events', (e: AuditEvent[]) => [e[0], e[2], e[1], e[3]] as AuditEvent[], 2, 'reordered'],
    ['a duplicated event', (e: AuditEvent[]) => [e[0], e[1], e[1], e[2]] as AuditEvent[], 2, 'reordered'],
    [
      'a rewritten link',
      (e: AuditEvent[]) => e.map((x) => (x.seq === 3 ? { ...x, prevHash: GENESIS_HASH } : x)),
      3,
      'broken_link',
    ],
  ])('detects %s', async (_, tamper, seq, reason) => {
    expect(await verifyAuditChain(tamper(chain(4)))).toEqual({ ok: false, seq, reason });
  });

  it('starts from a checkpoint and refuses a chain that does not continue it', async () => {
    const all = chain(5);
    const checkpoint = { seq: 2, hash: all[1]?.hash ?? '' };
    expect(await verifyAuditChain(all.slice(2), { start: checkpoint })).toMatchObject({ ok: true, count: 3 });
    expect(await verifyAuditChain(all.slice(3), { start: checkpoint })).toEqual({
      ok: false,
      seq: 3,
      reason: 'gap',
    });
    expect(await verifyAuditChain(all.slice(2), { start: { seq: 2, hash: GENESIS_HASH } })).toEqual({
      ok: false,
      seq: 3,
      reason: 'broken_link',
    });
  });
});

describe('verifyAuditExport', () => {
  it('reads a checkpoint line, then events, from chunks that split lines anywhere', async () => {
    const all = chain(5);
    const text = [
      JSON.stringify({ checkpoint: { seq: 2, hash: all[1]?.hash, truncatedAt: 9, removed: 2 } }),
      ...lines(all.slice(2)),
    ].join('\n');
    const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
    expect(await verifyAuditExport(chunks)).toEqual({ ...unsigned, count: 3, lastHash: all[4]?.hash });
  });

  it('verifies an export without a checkpoint and an empty one', async () => {
    expect(await verifyAuditExport(`${lines(chain(3)).join('\n')}\n`)).toMatchObject({ ok: true, count: 3 });
    expect(await verifyAuditExport('')).toEqual({ ...unsigned, count: 0, lastHash: null });
  });

  it('names the line that is not an audit event', async () => {
    const text = [...lines(chain(1)), '{"seq": "two"}'].join('\n');
    await expect(verifyAuditExport(text)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('line 2'),
    });
    await expect(verifyAuditExport('not json')).rejects.toMatchObject({
      message: expect.stringContaining('line 1'),
    });
  });
});
