import type { AuditEvent } from 'gatehouse-hitl-core';
import { expect, it } from 'vitest';
import { verifyAuditExport } from '../audit/export.js';
import { GENESIS_HASH } from '../audit/hash.js';
import { dropAuditTriggersSql } from '../testing/audit-tamper.js';
import type { AuditInput, Store } from '../types.js';
import { sleep } from './fixtures.js';
import type { ContractContext } from './harness.js';

function input(n: number, overrides: Partial<AuditInput> = {}): AuditInput {
  return { kind: 'gate.decided', actor: 'user_a', subject: `gate_${n}`, data: { n }, ...overrides };
}

async function appendEach(store: Store, inputs: AuditInput[]): Promise<AuditEvent[]> {
  return store.transaction(async (tx) => {
    const events: AuditEvent[] = [];
    for (const event of inputs) events.push(await tx.appendAudit(event));
    return events;
  });
}

async function collect(events: AsyncIterable<AuditEvent>): Promise<AuditEvent[]> {
  const all: AuditEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

async function exportLines(store: Store): Promise<string[]> {
  const checkpoint = await store.getAuditCheckpoint();
  const events = await collect(store.streamAudit());
  return [...(checkpoint ? [JSON.stringify({ checkpoint })] : []), ...events.map((e) => JSON.stringify(e))];
}

/** The hash chain: links, tamper detection, export verification and retention truncation. */
export function describeAuditContract(ctx: ContractContext): void {
  it('chains events from the genesis hash and verifies them', async () => {
    const { store } = ctx.harness();
    const events = await appendEach(store, [input(1), input(2), input(3, { subject: null })]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events[0]?.prevHash).toBe(GENESIS_HASH);
    expect(events[1]?.prevHash).toBe(events[0]?.hash);
    expect(events[0]?.id).toMatch(/^evt_[0-9a-f]{20}$/);
    expect(await collect(store.streamAudit())).toEqual(events);
    expect(await store.verifyAuditChain()).toEqual({
      ok: true,
      count: 3,
      lastHash: events[2]?.hash,
      checkpoints: 0,
      lastCheckpoint: null,
    });
    expect(await verifyAuditExport((await exportLines(store)).join('\n'))).toMatchObject({
      ok: true,
      count: 3,
    });
  });

  it('hashes each event as it is read back, whatever its data holds', async () => {
    const { store } = ctx.harness();
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const amount = { toJSON: () => '12.50 EUR' };
    const events = await appendEach(store, [
      input(1, { data: { z: 1, list: [1, undefined, 'x'], gone: undefined, nested: { b: true, a: null } } }),
      input(2, { data: { at: when, amount, list: [when] } }),
      input(3, { data: { 10: 'ten', 9: 'nine', rows: [{ y: 2, x: 1 }], text: 'line\u2028end \ud800' } }),
    ]);
    const stored = await collect(store.streamAudit());
    expect(stored.map((event) => event.data)).toEqual([
      { z: 1, list: [1, null, 'x'], nested: { b: true, a: null } },
      { at: when.toISOString(), amount: '12.50 EUR', list: [when.toISOString()] },
      { 9: 'nine', 10: 'ten', rows: [{ x: 1, y: 2 }], text: 'line\u2028end \ud800' },
    ]);
    expect(stored.map((event) => event.hash)).toEqual(events.map((event) => event.hash));
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 3 });
  });

  it('refuses to update or delete audit rows, or to write the retention start, outside retention', async () => {
    const { store, execute } = ctx.harness();
    await appendEach(store, [input(1), input(2), input(3)]);
    const refused = /append-only|retention only/;
    await expect(execute(`update audit_events set data = '{"n":99}' where seq = 2`)).rejects.toThrow(refused);
    await expect(execute('delete from audit_events where seq = 3')).rejects.toThrow(refused);
    await expect(execute('delete from audit_events')).rejects.toThrow(refused);
    await expect(
      execute(`insert into audit_checkpoint (id, seq, hash, truncated_at, removed) values (1, 2, 'x', 0, 2)`),
    ).rejects.toThrow(refused);
    expect((await collect(store.streamAudit())).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(await store.getAuditCheckpoint()).toBeNull();
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 3 });
  });

  it("with retention's exception open, still refuses to remove anything but the oldest events", async () => {
    const { store, execute } = ctx.harness();
    await appendEach(store, [input(1), input(2), input(3), input(4), input(5)]);
    const asRetention = (statements: string) =>
      store.dialect === 'postgres'
        ? execute(`select set_config('gatehouse.retention', 'on', true); ${statements}`)
        : execute(
            `begin; insert into audit_retention_guard (id) values (1); ${statements}; delete from audit_retention_guard; commit`,
          );
    const refused = /only the oldest/;
    await expect(asRetention('delete from audit_events where seq = 3')).rejects.toThrow(refused);
    await expect(asRetention('delete from audit_events where seq >= 4')).rejects.toThrow(refused);
    await expect(asRetention('delete from audit_events where seq in (1, 3)')).rejects.toThrow(refused);
    expect((await collect(store.streamAudit())).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    await asRetention('delete from audit_events where seq <= 2');
    expect((await collect(store.streamAudit())).map((e) => e.seq)).toEqual([3, 4, 5]);
  });

  it('detects an edited row', async () => {
    const { store, execute } = ctx.harness();
    await appendEach(store, [input(1), input(2), input(3)]);
    await execute(dropAuditTriggersSql(store.dialect));
    await execute(`update audit_events set data = '{"n":99}' where seq = 2`);
    expect(await store.verifyAuditChain()).toEqual({ ok: false, seq: 2, reason: 'hash_mismatch' });
  });

  it('detects a deleted row', async () => {
    const { store, execute } = ctx.harness();
    await appendEach(store, [input(1), input(2), input(3)]);
    await execute(dropAuditTriggersSql(store.dialect));
    await execute('delete from audit_events where seq = 2');
    expect(await store.verifyAuditChain()).toEqual({ ok: false, seq: 2, reason: 'gap' });
  });

  it('detects rows swapped in place and lines reordered in an export', async () => {
    const { store, execute } = ctx.harness();
    await appendEach(store, [input(1), input(2), input(3)]);
    const lines = await exportLines(store);
    expect(await verifyAuditExport([lines[0], lines[2], lines[1]].join('\n'))).toEqual({
      ok: false,
      seq: 2,
      reason: 'reordered',
    });
    await execute(dropAuditTriggersSql(store.dialect));
    await execute(
      'update audit_events set seq = -2 where seq = 2; update audit_events set seq = 2 where seq = 3; update audit_events set seq = 3 where seq = -2',
    );
    expect(await store.verifyAuditChain()).toEqual({ ok: false, seq: 2, reason: 'broken_link' });
  });

  it('truncates only the oldest prefix and keeps a checkpoint the rest verifies from', async () => {
    const { store, execute } = ctx.harness();
    const old = await appendEach(store, [input(1), input(2), input(3)]);
    await sleep(15);
    const cut = await store.databaseNow();
    await sleep(15);
    await appendEach(store, [input(4), input(5)]);
    const checkpoint = await store.truncateAudit({ before: cut });
    expect(checkpoint).toMatchObject({ seq: 3, hash: old[2]?.hash, removed: 3 });
    expect(await store.getAuditCheckpoint()).toEqual(checkpoint);
    expect((await collect(store.streamAudit())).map((e) => e.seq)).toEqual([4, 5]);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 2 });
    expect(await store.truncateAudit({ before: cut })).toBeNull();
    const [next] = await appendEach(store, [input(6)]);
    expect(next?.seq).toBe(6);
    expect(await store.verifyAuditChain()).toEqual({
      ok: true,
      count: 3,
      lastHash: next?.hash,
      checkpoints: 0,
      lastCheckpoint: null,
    });
    const lines = await exportLines(store);
    expect(JSON.parse(lines[0] ?? '{}')).toEqual({ checkpoint });
    expect(await verifyAuditExport(lines.map((line) => `${line}\n`))).toMatchObject({ ok: true, count: 3 });
    await execute(dropAuditTriggersSql(store.dialect));
    await execute('delete from audit_events where seq = 4');
    expect(await store.verifyAuditChain()).toEqual({ ok: false, seq: 4, reason: 'gap' });
  });

  it('continues the chain from the checkpoint when every event was truncated', async () => {
    const { store } = ctx.harness();
    const events = await appendEach(store, [input(1), input(2)]);
    await sleep(5);
    const checkpoint = await store.truncateAudit({ before: (await store.databaseNow()) + 1 });
    expect(checkpoint).toMatchObject({ seq: 2, hash: events[1]?.hash, removed: 2 });
    expect(await store.verifyAuditChain()).toEqual({
      ok: true,
      count: 0,
      lastHash: events[1]?.hash,
      checkpoints: 0,
      lastCheckpoint: null,
    });
    const [next] = await appendEach(store, [input(3)]);
    expect(next).toMatchObject({ seq: 3, prevHash: events[1]?.hash });
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 1 });
  });

  it('links every append to the last committed one across batches, rolled-back units and truncation', async () => {
    const { store } = ctx.harness();
    await appendEach(store, [input(1)]);
    const refused = new Error('refused');
    const appendThenThrow = (n: number) =>
      store.transaction(async (tx) => {
        await tx.appendAudit(input(n));
        throw refused;
      });
    await expect(appendThenThrow(2)).rejects.toBe(refused);
    // Concurrent units share a batch: the one that throws in the middle is undone alone.
    const batch = await Promise.allSettled([
      appendEach(store, [input(3)]),
      appendThenThrow(4),
      appendEach(store, [input(5)]),
    ]);
    expect(batch.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await sleep(5);
    await store.truncateAudit({ before: (await store.databaseNow()) + 1 });
    await appendEach(store, [input(6)]);
    const events = await collect(store.streamAudit());
    expect(events.map((e) => (e.data as { n: number }).n)).toEqual([6]);
    expect(events[0]?.seq).toBe(4);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 1 });
  });

  it('queries the trail by kind, actor, subject, time and seq, page by page', async () => {
    const { store } = ctx.harness();
    const events = await appendEach(store, [
      input(1),
      input(2, { kind: 'policy.changed', actor: 'user_admin' }),
      input(3),
      input(4, { subject: 'gate_1' }),
    ]);
    const seqs = async (filter: Parameters<Store['queryAudit']>[0]) =>
      (await store.queryAudit(filter)).items.map((e) => e.seq);
    expect(await seqs({ kind: 'gate.decided' })).toEqual([1, 3, 4]);
    expect(await seqs({ actor: 'user_admin' })).toEqual([2]);
    expect(await seqs({ subject: 'gate_1' })).toEqual([1, 4]);
    expect(await seqs({ fromSeq: 3 })).toEqual([3, 4]);
    const at = events[0]?.at ?? 0;
    expect(await seqs({ since: at, until: at + 1 })).toEqual([1, 2, 3, 4]);
    expect(await seqs({ until: at })).toEqual([]);
    const first = await store.queryAudit({ limit: 3 });
    expect(first.items).toEqual(events.slice(0, 3));
    const second = await store.queryAudit({ limit: 3, cursor: first.nextCursor ?? '' });
    expect(second).toEqual({ items: events.slice(3), nextCursor: null });
    const newest = await store.queryAudit({ limit: 3, order: 'desc' });
    expect(newest.items.map((e) => e.seq)).toEqual([4, 3, 2]);
    const older = await store.queryAudit({ limit: 3, order: 'desc', cursor: newest.nextCursor ?? '' });
    expect(older).toEqual({ items: events.slice(0, 1), nextCursor: null });
    expect(await seqs({ kind: 'gate.decided', order: 'desc' })).toEqual([4, 3, 1]);
  });

  it("queries by actor and subject see every event, on both sides of the filter tables' mark", async () => {
    const { store, execute } = ctx.harness();
    const actors = ['agent:a', 'agent:b', 'agent:c', 'user_x'] as const;
    const subjects = ['run_1', 'run_2', null] as const;
    const made = (n: number) =>
      input(n, {
        actor: actors[n % 4] ?? 'agent:a',
        subject: subjects[n % 3] ?? null,
        kind: n % 5 === 0 ? 'gate.opened' : 'request.allowed',
      });
    // 1024 and 2048 are crossed by the 2nd and 3rd commits, which fill the tables; the 4th stays after the mark.
    const all: AuditEvent[] = [];
    for (const [from, to] of [
      [1, 900],
      [901, 1800],
      [1801, 2600],
      [2601, 2700],
    ] as const) {
      const inputs = Array.from({ length: to - from + 1 }, (_, i) => made(from + i));
      all.push(...(await appendEach(store, inputs)));
    }
    const filled = /filter index keeps a row/;
    await expect(execute(`delete from audit_by_actor where seq = 2600`)).rejects.toThrow(filled);
    await expect(execute(`delete from audit_by_subject where seq = 4`)).rejects.toThrow(filled);
    await expect(execute('update audit_filter_mark set seq = 10')).rejects.toThrow(/only moves forward/);

    type Filter = Parameters<Store['queryAudit']>[0];
    const walk = async (filter: Filter) => {
      const seqs: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.queryAudit({ ...filter, ...(cursor === undefined ? {} : { cursor }) });
        seqs.push(...page.items.map((e) => e.seq));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return seqs;
    };
    const at = all[0]?.at ?? 0;
    const cases: [Filter, (e: AuditEvent) => boolean][] = [
      [{ actor: 'agent:b' }, (e) => e.actor === 'agent:b'],
      [{ subject: 'run_2' }, (e) => e.subject === 'run_2'],
      [{ actor: 'user_x', subject: 'run_1' }, (e) => e.actor === 'user_x' && e.subject === 'run_1'],
      [{ actor: 'agent:a', kind: 'gate.opened' }, (e) => e.actor === 'agent:a' && e.kind === 'gate.opened'],
      [{ subject: 'run_1', fromSeq: 2000 }, (e) => e.subject === 'run_1' && e.seq >= 2000],
      [{ actor: 'agent:c', since: at }, (e) => e.actor === 'agent:c' && e.at >= at],
      [{ actor: 'nobody' }, () => false],
    ];
    for (const [filter, keep] of cases) {
      const expected = all.filter(keep).map((e) => e.seq);
      expect(await walk({ ...filter, limit: 97 }), JSON.stringify(filter)).toEqual(expected);
      expect(await walk({ ...filter, limit: 97, order: 'desc' }), JSON.stringify(filter)).toEqual(
        [...expected].reverse(),
      );
    }
    const byActor = all.filter((e) => e.actor === 'agent:b');
    const page = await store.queryAudit({ actor: 'agent:b', limit: 3, order: 'desc' });
    expect(page.items).toEqual(byActor.slice(-3).reverse());
  });

  it('retention removes the filter rows of the events it removed, and queries stay whole', async () => {
    const { store, execute } = ctx.harness();
    const first = await appendEach(
      store,
      Array.from({ length: 1100 }, (_, n) => input(n, { actor: n % 2 ? 'agent:a' : 'agent:b' })),
    );
    await sleep(5);
    const cut = await store.databaseNow();
    await sleep(5);
    const kept = await appendEach(store, [input(1, { actor: 'agent:a' }), input(2, { actor: 'agent:b' })]);
    expect((await store.queryAudit({ actor: 'agent:a', limit: 1000 })).items).toHaveLength(551);
    expect(await store.truncateAudit({ before: cut })).toMatchObject({ removed: first.length });
    const noneLeft = (table: string) =>
      execute(
        `create temp table ${table}_left (n integer check (n = 0)); insert into ${table}_left select count(*) from ${table} where seq <= ${first.length}`,
      );
    await noneLeft('audit_by_actor');
    await noneLeft('audit_by_subject');
    expect((await store.queryAudit({ actor: 'agent:a' })).items).toEqual([kept[0]]);
    expect((await store.queryAudit({ subject: 'gate_2', order: 'desc' })).items).toEqual([kept[1]]);
  });
}
