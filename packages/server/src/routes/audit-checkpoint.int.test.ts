import { createPublicKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ExecutedStatement, isCheckpointSigned, readAuditHeads } from 'gatehouse-hitl-store';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config.js';
import { commit } from '../services/commit.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';
import { startWebhookReceiver } from '../testing/webhook-receiver.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects)('signed audit checkpoints on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(
    config: Partial<ServerConfig> = {},
    onStatement?: (statement: ExecutedStatement) => void,
  ) {
    test = await createTestApp({
      dialect,
      config: { webhookPollIntervalMs: 50, ...config },
      ...(onStatement === undefined ? {} : { onStatement }),
    });
    cleanup.push(() => test.close());
  }

  const event = (kind: string) =>
    commit(test.ctx, ({ audit }) => audit({ kind, actor: 'system:test', subject: null, data: {} }));

  const heads = async () =>
    readAuditHeads(readFileSync(join(test.config.dataDir, 'audit-heads.jsonl'), 'utf8'));

  it('signs the head once per batch of new events, with a key file only its owner can read', async () => {
    await start();
    await event('test.one');
    const written = await test.services.audit.checkpoint();
    expect(written.status).toBe('written');
    expect(await test.services.audit.checkpoint()).toEqual({ status: 'unchanged' });
    expect(statSync(join(test.config.dataDir, 'audit-signing-key.pem')).mode & 0o777).toBe(0o600);

    const key = (
      await test.app.inject({ method: 'GET', url: '/v1/audit/key', headers: bearer(test.tokens.viewer) })
    ).json();
    expect(key).toMatchObject({ algorithm: 'Ed25519', keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const [head] = await heads();
    expect(head && isCheckpointSigned(createPublicKey(key.publicKey), head)).toBe(true);
    const last = (await test.services.audit.query({ order: 'desc', limit: 1 })).items[0];
    expect(last).toMatchObject({ kind: 'audit.checkpoint', actor: 'system:audit', data: head });
  });

  it('publishes each checkpoint to a webhook subscribed to audit.checkpoint, the same as the heads file', async () => {
    await start();
    const hook = await startWebhookReceiver();
    cleanup.push(() => hook.close());
    const created = await test.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(test.tokens.admin),
      payload: { url: hook.url, events: ['audit.checkpoint'] },
    });
    expect(created.statusCode).toBe(201);
    await event('test.one');
    await test.services.audit.checkpoint();
    const [delivery] = await hook.waitFor(1);
    const body = JSON.parse(delivery?.body ?? '{}');
    expect(body).toMatchObject({ type: 'audit.checkpoint', actor: 'system:audit', data: (await heads())[0] });
  });

  it('signs the newest events when it stops, so they are not left unsigned while it is down', async () => {
    await start();
    await event('test.one');
    expect((await test.services.audit.checkpoint()).status).toBe('written');
    await event('test.two');
    await test.app.close();
    const signed = await heads();
    expect(signed).toHaveLength(2);
    const last = (await test.services.audit.query({ order: 'desc', limit: 2 })).items;
    expect(last.map((e) => e.kind)).toEqual(['audit.checkpoint', 'test.two']);
    expect(signed[1]).toMatchObject({ seq: last[1]?.seq, hash: last[1]?.hash });
  });

  it('signs on its own every interval while new events come in, and only then', async () => {
    await start({ auditCheckpointIntervalMs: 100 });
    const signedUpTo = async (kind: string) => {
      await event(kind);
      const { seq } = (await test.services.audit.query({ order: 'desc', limit: 1 })).items[0] ?? { seq: 0 };
      for (let waited = 0; waited < 5_000; waited += 50) {
        const last = await heads().catch(() => []);
        if ((last.at(-1)?.seq ?? 0) >= seq) return last.length;
        await sleep(50);
      }
      throw new Error(`seq ${seq} was never signed`);
    };
    const settled = await signedUpTo('test.one');
    await sleep(400);
    expect(await heads()).toHaveLength(settled);
    expect(await signedUpTo('test.two')).toBe(settled + 1);
  });

  it('checks a long stretch since the last checkpoint before its write, so the signing write reads only the newest events', async () => {
    const trace: ExecutedStatement[] = [];
    await start({}, (statement) => trace.push(statement));
    await commit(test.ctx, async ({ audit }) => {
      for (let i = 0; i < 3_000; i++)
        await audit({ kind: 'test.many', actor: 'system:test', subject: null, data: { i } });
    });
    trace.length = 0;
    expect((await test.services.audit.checkpoint()).status).toBe('written');
    const begin = dialect === 'sqlite' ? /^begin immediate/i : /^begin$/i;
    const opened = trace.findLastIndex((statement) => begin.test(statement.sql.trim()));
    const closed = trace.findIndex((statement, i) => i > opened && /^commit$/i.test(statement.sql.trim()));
    const inWrite = trace.slice(opened, closed).filter((statement) => /audit_events/i.test(statement.sql));
    // The head, the event last checked and the (empty) batch after it, and the checkpoint's own insert.
    expect(inWrite.length).toBeLessThanOrEqual(5);
    // The stretch itself was read, outside the write.
    const batches = trace.slice(0, opened).filter((statement) => /audit_events/i.test(statement.sql));
    expect(batches.length).toBeGreaterThanOrEqual(6);
  });

  it('checks the stretch in slices of at most 64 events, so no turn of the event loop reads or hashes more', async () => {
    const trace: ExecutedStatement[] = [];
    await start({}, (statement) => trace.push(statement));
    await commit(test.ctx, async ({ audit }) => {
      for (let i = 0; i < 1_000; i++)
        await audit({ kind: 'test.many', actor: 'system:test', subject: null, data: { i } });
    });
    trace.length = 0;
    expect((await test.services.audit.checkpoint()).status).toBe('written');
    const reads = trace.filter((statement) => /^select \* from (".+"\.)?"audit_events"/i.test(statement.sql));
    expect(Math.max(...reads.map((statement) => statement.rowsRead))).toBeLessThanOrEqual(64);
    expect(reads.reduce((rows, statement) => rows + statement.rowsRead, 0)).toBeGreaterThanOrEqual(1_000);
  });
});
