import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEvent } from 'gatehouse-hitl-core';
import {
  type AuditVerification,
  auditHash,
  GENESIS_HASH,
  readAuditHeads,
  verifyAuditExport,
} from 'gatehouse-hitl-store';
import { dropAuditTriggersSql } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { commit } from '../services/commit.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

function insertSql(events: AuditEvent[]): string {
  const rows = events.map((e) =>
    [
      e.seq,
      quote(e.id),
      e.at,
      quote(e.kind),
      quote(e.actor),
      e.subject === null ? 'null' : quote(e.subject),
      quote(JSON.stringify(e.data)),
      quote(e.prevHash),
      quote(e.hash),
    ].join(', '),
  );
  return `insert into audit_events (seq, id, at, kind, actor, subject, data, prev_hash, hash) values (${rows.join('), (')})`;
}

/** Recomputes every link with the project's own hash function, as an attacker with the source would. */
function rechain(events: AuditEvent[], startHash = GENESIS_HASH): AuditEvent[] {
  let previous = startHash;
  return events.map((event) => {
    const hash = auditHash(previous, event);
    const linked = { ...event, prevHash: previous, hash };
    previous = hash;
    return linked;
  });
}

describe.each(dialects)('a rewritten audit trail on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  afterEach(async () => {
    await test?.close();
  });

  async function all(): Promise<AuditEvent[]> {
    const events: AuditEvent[] = [];
    for await (const event of test.store.streamAudit()) events.push(event);
    return events;
  }

  /** Three rounds of three events, each round closed by an export, which signs a checkpoint. */
  async function startWithCheckpoints(): Promise<AuditEvent[]> {
    test = await createTestApp({ dialect });
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 3; i += 1) {
        await commit(test.ctx, ({ audit }) =>
          audit({ kind: `test.r${round}`, actor: 'user:user_admin', subject: null, data: { round, i } }),
        );
      }
      const exported = await test.app.inject({
        method: 'GET',
        url: '/v1/audit/export',
        headers: bearer(test.tokens.admin),
      });
      expect(exported.statusCode).toBe(200);
    }
    const events = await all();
    expect(events.filter((e) => e.kind === 'audit.checkpoint')).toHaveLength(3);
    return events;
  }

  async function rewrite(statements: string): Promise<void> {
    await test.executeSql(`${dropAuditTriggersSql(dialect)}; ${statements}`);
  }

  /** The server's own verify, and an export checked offline with the public key and the published heads. */
  async function verifyBothWays(): Promise<{ api: AuditVerification; file: AuditVerification }> {
    const api = await test.app.inject({
      method: 'GET',
      url: '/v1/audit/verify',
      headers: bearer(test.tokens.viewer),
    });
    const key = await test.app.inject({
      method: 'GET',
      url: '/v1/audit/key',
      headers: bearer(test.tokens.viewer),
    });
    const exported = await test.app.inject({
      method: 'GET',
      url: '/v1/audit/export',
      headers: bearer(test.tokens.admin),
    });
    const heads = await readAuditHeads(readFileSync(join(test.config.dataDir, 'audit-heads.jsonl'), 'utf8'));
    const file = await verifyAuditExport(exported.body, { publicKey: key.json().publicKey, heads });
    return { api: api.json(), file };
  }

  const checkpoints = (events: AuditEvent[]) => events.filter((e) => e.kind === 'audit.checkpoint');

  it('verifies the untouched trail with its signed checkpoints', async () => {
    await startWithCheckpoints();
    const { api, file } = await verifyBothWays();
    expect(api).toMatchObject({ ok: true, checkpoints: 6 });
    expect(file).toMatchObject({ ok: true });
  });

  it('finds the tail deleted after the last signed checkpoint', async () => {
    const events = await startWithCheckpoints();
    const last = checkpoints(events).at(-1) as AuditEvent;
    await rewrite(`delete from audit_events where seq >= ${last.seq - 2}`);
    const failure = { ok: false, seq: last.seq - 1, reason: 'truncated' };
    const { api, file } = await verifyBothWays();
    expect(api).toMatchObject({ ...failure, checkpoint: { seq: last.seq - 1, source: 'heads' } });
    expect(file).toMatchObject(failure);
  });

  it('finds an edited row whose chain was recomputed, at the first checkpoint after it', async () => {
    const events = await startWithCheckpoints();
    const first = checkpoints(events)[0] as AuditEvent;
    const target = first.seq - 2;
    const edited = events.map((e) => (e.seq === target ? { ...e, data: { round: 0, i: 'nothing' } } : e));
    await rewrite(`delete from audit_events; ${insertSql(rechain(edited))}`);
    await commit(test.ctx, ({ audit }) =>
      audit({ kind: 'test.after', actor: 'system:test', subject: null, data: {} }),
    );
    expect(await test.services.audit.checkpoint()).toMatchObject({
      status: 'refused',
      failure: { reason: 'checkpoint_mismatch' },
    });
    const { api, file } = await verifyBothWays();
    expect(api).toMatchObject({ ok: false, seq: first.seq - 1, reason: 'checkpoint_mismatch' });
    expect(file).toMatchObject({ ok: false, seq: first.seq - 1, reason: 'checkpoint_mismatch' });
  });

  it('finds a deleted row whose followers were renumbered and rechained', async () => {
    const events = await startWithCheckpoints();
    const first = checkpoints(events)[0] as AuditEvent;
    const gone = first.seq - 3;
    const renumbered = events
      .filter((e) => e.seq !== gone)
      .map((e) => (e.seq > gone ? { ...e, seq: e.seq - 1 } : e));
    await rewrite(`delete from audit_events; ${insertSql(rechain(renumbered))}`);
    const { api, file } = await verifyBothWays();
    expect(api).toMatchObject({ ok: false, seq: first.seq - 1, reason: 'checkpoint_mismatch' });
    expect(file).toMatchObject({ ok: false, seq: first.seq - 1, reason: 'checkpoint_mismatch' });
  });

  it('finds a deleted prefix behind a forged retention start', async () => {
    const events = await startWithCheckpoints();
    const [first] = checkpoints(events) as [AuditEvent];
    const cut = events.find((e) => e.seq === first.seq + 1) as AuditEvent;
    await rewrite(
      [
        `delete from audit_events where seq <= ${cut.seq}`,
        `insert into audit_checkpoint (id, seq, hash, truncated_at, removed) values (1, ${cut.seq}, ${quote(cut.hash)}, ${cut.at}, ${cut.seq})`,
      ].join('; '),
    );
    const { api, file } = await verifyBothWays();
    const failure = { ok: false, seq: cut.seq, reason: 'unsigned_start' };
    expect(api).toMatchObject({ ...failure, checkpoint: { seq: cut.seq, source: 'start' } });
    expect(file).toMatchObject(failure);
  });

  it('finds a forged checkpoint event by its signature', async () => {
    const events = await startWithCheckpoints();
    const [first] = checkpoints(events) as [AuditEvent];
    const forged = events.map((e) =>
      e.seq === first.seq ? { ...e, data: { ...e.data, at: Number(e.data.at) + 1 } } : e,
    );
    await rewrite(`delete from audit_events; ${insertSql(rechain(forged))}`);
    const { api, file } = await verifyBothWays();
    const failure = { ok: false, seq: first.seq, reason: 'bad_signature' };
    expect(api).toMatchObject({ ...failure, checkpoint: { source: 'chain' } });
    expect(file).toMatchObject(failure);
  });
});
