import { expect, it } from 'vitest';
import { refusesNestedTransactions } from '../group-commit.js';
import { makeAgent, makeUser, uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

/** Group commit: many units share a commit, a throwing unit rolls back alone. */
export function describeCommitContract(ctx: ContractContext): void {
  it('commits 100 concurrent transactions and rolls back only the one that throws', async () => {
    const { store } = ctx.harness();
    const failure = new Error('unit 37 fails');
    const agents = Array.from({ length: 100 }, (_, i) =>
      makeAgent({ id: `agent_${String(i).padStart(3, '0')}` }),
    );
    const results = await Promise.allSettled(
      agents.map((agent, i) =>
        store.transaction(async (tx) => {
          await tx.insertAgent(agent);
          await tx.appendAudit({
            kind: 'agent.created',
            actor: 'user_admin',
            subject: agent.id,
            data: { i },
          });
          if (i === 37) throw failure;
          return i;
        }),
      ),
    );
    expect(results[37]).toEqual({ status: 'rejected', reason: failure });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(99);
    expect(results[99]).toEqual({ status: 'fulfilled', value: 99 });
    const stored = await store.read((tx) => tx.listAgents());
    expect(stored.map((a) => a.id)).toEqual(agents.filter((_, i) => i !== 37).map((a) => a.id));
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 99 });
  });

  it('keeps the audit chain whole when a unit that appended to it rolls back', async () => {
    const { store } = ctx.harness();
    const append = (n: number, fail: boolean) =>
      store.transaction(async (tx) => {
        await tx.appendAudit({ kind: 'test', actor: 'a', subject: null, data: { n } });
        if (fail) throw new Error(`unit ${n} fails`);
      });
    const results = await Promise.allSettled([append(1, false), append(2, true), append(3, false)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const events = (await store.queryAudit({})).items;
    expect(events.map((e) => [e.seq, e.data.n])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true, count: 2 });
  });

  it('moves the credentials version when a commit changes tokens or people, before its caller hears back', async () => {
    const { store } = ctx.harness();
    const user = makeUser();
    const token = {
      tokenHash: uid('hash'),
      kind: 'session',
      subjectId: user.id,
      createdAt: 1,
      expiresAt: null,
      revokedAt: null,
    } as const;
    await store.transaction(async (tx) => {
      await tx.insertUser(user);
      await tx.insertToken(token);
    });
    const start = store.credentialsVersion();
    await store.transaction((tx) => tx.insertAgent(makeAgent()));
    await store.read((tx) => tx.getToken(token.tokenHash));
    expect(store.credentialsVersion()).toBe(start);
    const seen = await Promise.all([
      store
        .transaction((tx) => tx.updateUser({ ...user, role: 'viewer' }))
        .then(() => store.credentialsVersion()),
      store.transaction((tx) => tx.insertAgent(makeAgent())).then(() => store.credentialsVersion()),
    ]);
    expect(seen[0]).toBeGreaterThan(start);
    const afterUpdate = store.credentialsVersion();
    await store.transaction((tx) => tx.revokeToken(token.tokenHash, 2));
    expect(store.credentialsVersion()).toBeGreaterThan(afterUpdate);
    const afterRevoke = store.credentialsVersion();
    await store.transaction((tx) => tx.revokeTokensOf(user.id, 'session', 3));
    expect(store.credentialsVersion()).toBeGreaterThan(afterRevoke);
  });

  it('turns a duplicate insert into CONFLICT without hurting the rest of the batch', async () => {
    const { store } = ctx.harness();
    const agent = makeAgent();
    const other = makeAgent();
    const results = await Promise.allSettled([
      store.transaction((tx) => tx.insertAgent(agent)),
      store.transaction((tx) => tx.insertAgent(agent)),
      store.transaction((tx) => tx.insertAgent(other)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: { code: 'CONFLICT' } });
    expect(await store.read((tx) => tx.listAgents())).toHaveLength(2);
  });

  it('rolls back every write of a unit that throws, even when it is alone', async () => {
    const { store } = ctx.harness();
    const agent = makeAgent();
    await expect(
      store.transaction(async (tx) => {
        await tx.insertAgent(agent);
        await tx.appendStreamEvent({
          type: 'gate.opened',
          runId: null,
          agentId: agent.id,
          gateId: null,
          data: {},
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await store.read((tx) => tx.getAgent(agent.id))).toBeNull();
    expect(await store.latestStreamSeq()).toBe(0);
  });

  it.runIf(refusesNestedTransactions)(
    'refuses a transaction started inside a transaction instead of waiting for itself',
    async () => {
      const { store } = ctx.harness();
      await expect(store.transaction(() => store.transaction(async () => 1))).rejects.toMatchObject({
        code: 'INTERNAL',
      });
    },
  );

  it('refuses writes inside read()', async () => {
    const { store } = ctx.harness();
    await expect(store.read((tx) => tx.insertAgent(makeAgent()))).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(await store.read((tx) => tx.listAgents())).toEqual([]);
  });

  it('gives each unit a time near the database clock, and answers ping', async () => {
    const { store } = ctx.harness();
    const before = await store.databaseNow();
    const now = await store.transaction(async (tx) => tx.now);
    expect(now).toBeGreaterThanOrEqual(before - 1_000);
    expect(now - before).toBeLessThan(60_000);
    expect(await store.ping()).toBe(true);
  });

  it('refuses work after close and closes twice without complaint', async () => {
    const { store } = ctx.harness();
    const pending = store.transaction((tx) => tx.insertAgent(makeAgent({ id: uid('agent') })));
    await store.close();
    await expect(pending).resolves.toBeUndefined();
    await store.close();
    await expect(store.transaction(async () => 1)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(store.read((tx) => tx.listAgents())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
}
