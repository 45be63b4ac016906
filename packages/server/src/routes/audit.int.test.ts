import { createFakeClock, createGateCatalog, openGate } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { commit } from '../services/commit.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('the audit trail on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  let baseline: number;

  /** A fresh app; `baseline` counts the events it wrote on start (the first policy version). */
  async function start() {
    test = await createTestApp({ dialect, clock: createFakeClock() });
    baseline = (await test.services.audit.query({ limit: 500 })).items.length;
  }

  /** A fresh app whose trail starts empty, for retention scenarios that begin at the chain's start. */
  async function startEmpty() {
    await start();
    await test.store.truncateAudit({ before: test.clock.now() + 1 });
    baseline = 0;
  }

  function audit(kind: string, subject: string | null, actor = 'user:user_admin') {
    return commit(test.ctx, ({ audit: append }) => append({ kind, actor, subject, data: { n: kind } }));
  }

  function get(url: string, token = test.tokens.viewer) {
    return test.app.inject({ method: 'GET', url, headers: bearer(token) });
  }

  async function insertGate(id: string, type: string) {
    const gate = openGate(
      { type, agentId: test.ids.agentId },
      { catalog: createGateCatalog(), id, now: test.clock.now() },
    );
    await test.store.transaction((tx) => tx.insertGate(gate));
  }

  it('filters by kind, actor, subject and time, and pages with a cursor', async () => {
    await start();
    await audit('a.one', 'x_1');
    test.clock.advance(1000);
    await audit('a.two', 'x_2', 'agent:agent_alpha');
    test.clock.advance(1000);
    await audit('a.one', 'x_3');
    const t0 = test.clock.now() - 2000;

    expect(
      (await get('/v1/audit?kind=a.one')).json().items.map((e: { subject: string }) => e.subject),
    ).toEqual(['x_1', 'x_3']);
    expect((await get('/v1/audit?actor=agent:agent_alpha')).json().items).toHaveLength(1);
    expect((await get('/v1/audit?subject=x_3')).json().items[0].kind).toBe('a.one');
    expect(
      (await get(`/v1/audit?since=${t0 + 1000}&until=${t0 + 2000}`))
        .json()
        .items.map((e: { subject: string }) => e.subject),
    ).toEqual(['x_2']);

    const first = (await get('/v1/audit?actor=user:user_admin&limit=1')).json();
    expect(first.items.map((e: { subject: string }) => e.subject)).toEqual(['x_1']);
    expect(first.nextCursor).not.toBeNull();
    const cursor = encodeURIComponent(first.nextCursor);
    const second = (await get(`/v1/audit?actor=user:user_admin&limit=1&cursor=${cursor}`)).json();
    expect(second.items.map((e: { subject: string }) => e.subject)).toEqual(['x_3']);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by the name of a person or an agent, and names actorName when it finds neither', async () => {
    await start();
    await audit('a.one', 'x_1');
    await audit('a.two', 'x_2', 'agent:agent_alpha');
    const subjects = async (url: string) =>
      (await get(url)).json().items.map((e: { subject: string }) => e.subject);
    expect(await subjects('/v1/audit?actorName=alpha')).toEqual(['x_2']);
    expect(await subjects('/v1/audit?actorName=admin&kind=a.one')).toEqual(['x_1']);
    const unknown = await get('/v1/audit?actorName=nobody');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.field).toBe('actorName');
    const both = await get('/v1/audit?actorName=admin&actor=user:user_admin');
    expect(both.statusCode).toBe(400);
    expect(both.json().error.details.field).toBe('actorName');
  });

  it('refuses unknown filters and out-of-range limits, naming the field', async () => {
    await start();
    const unknown = await get('/v1/audit?sort=desc');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('sort');
    const limit = await get('/v1/audit?limit=100000');
    expect(limit.json().error.details.fields[0].field).toBe('limit');
  });

  it('verifies the chain', async () => {
    await start();
    await audit('a.one', null);
    await audit('a.two', null);
    const response = await get('/v1/audit/verify');
    expect(response.json()).toEqual({
      ok: true,
      count: baseline + 2,
      lastHash: expect.any(String),
      checkpoints: 0,
      lastCheckpoint: null,
    });
  });

  it('exports JSON Lines to tech leads and above, one event per line in order', async () => {
    await start();
    for (let i = 0; i < 450; i += 1) await audit(`bulk.${i}`, null);
    expect((await get('/v1/audit/export')).statusCode).toBe(403);
    const response = await get('/v1/audit/export', test.tokens.techLead);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The export signs the head first, so it ends with that checkpoint.
    expect(lines).toHaveLength(baseline + 451);
    expect(lines.map((event) => event.seq)).toEqual(
      [...lines.map((event) => event.seq)].sort((a, b) => a - b),
    );
    expect(lines.at(-2).kind).toBe('bulk.449');
    expect(lines.at(-1)).toMatchObject({ kind: 'audit.checkpoint', data: { seq: lines.at(-2).seq } });
  });

  it('truncates by each gate type retention from the start, keeps a checkpoint, and the rest still verifies', async () => {
    await startEmpty();
    await insertGate('gate_recovery', 'recovery_escalation');
    await audit('gate.opened', 'gate_recovery');
    await audit('gate.decided', 'gate_recovery');
    test.clock.advance(DAY);
    await audit('user.created', 'user_x');
    test.clock.advance(DAY);
    await audit('gate.note', 'gate_recovery');

    expect(await test.services.audit.runRetention()).toBeNull();
    test.clock.set(Date.UTC(2026, 0, 1) + 91 * DAY);
    const checkpoint = await test.services.audit.runRetention();
    expect(checkpoint).toEqual(expect.objectContaining({ removed: 2 }));
    const kinds = (await get('/v1/audit')).json().items.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['user.created', 'gate.note', 'audit.truncated']);
    expect((await get('/v1/audit/verify')).json()).toEqual(expect.objectContaining({ ok: true }));

    const exported = (await get('/v1/audit/export', test.tokens.admin)).body.trimEnd().split('\n');
    expect(JSON.parse(exported[0] ?? '{}')).toEqual({
      checkpoint: expect.objectContaining({ seq: checkpoint?.seq }),
    });
    expect(exported).toHaveLength(5);
    expect(JSON.parse(exported[0] ?? '{}').checkpoint.signature).toEqual(expect.any(String));

    test.clock.set(Date.UTC(2026, 0, 1) + 400 * DAY);
    await test.services.audit.runRetention();
    const remaining = (await get('/v1/audit')).json().items.map((e: { kind: string }) => e.kind);
    // The export's checkpoint was signed in the same millisecond as the marker before it, so both stay.
    expect(remaining).toEqual(['audit.truncated', 'audit.checkpoint', 'audit.truncated']);
    expect((await get('/v1/audit/verify')).json()).toEqual(expect.objectContaining({ ok: true }));
  });

  it('keeps everything younger than the longest retention when the subject is not a gate', async () => {
    await startEmpty();
    await audit('user.created', 'user_x');
    await audit('policy.changed', null);
    test.clock.advance(364 * DAY);
    expect(await test.services.audit.runRetention()).toBeNull();
    expect((await get('/v1/audit')).json().items).toHaveLength(2);
  });
});
