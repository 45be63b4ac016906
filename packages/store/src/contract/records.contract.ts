import { expect, it } from 'vitest';
import { makeAgent, makeIntervention, makeReport, makeRule, makeRun, makeUser, uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

/** Agents, people, tokens, keys, runs, rules, reports, interventions, policies, idempotency. */
export function describeRecordContract(ctx: ContractContext): void {
  it('round-trips agents and rejects a duplicate id with CONFLICT', async () => {
    const { store } = ctx.harness();
    const agent = makeAgent({ autonomy: 'guided' });
    const other = makeAgent({ profile: null, createdAt: 2_000 });
    await store.transaction(async (tx) => {
      await tx.insertAgent(agent);
      await tx.insertAgent(other);
    });
    expect(await store.read((tx) => tx.getAgent(agent.id))).toEqual(agent);
    expect(await store.read((tx) => tx.getAgent('agent_missing'))).toBeNull();
    expect(await store.read((tx) => tx.listAgents())).toEqual([agent, other]);
    await expect(store.transaction((tx) => tx.insertAgent(agent))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('round-trips people, finds them by name and updates them', async () => {
    const { store } = ctx.harness();
    const user = makeUser({ role: 'tech_lead' });
    await store.transaction((tx) => tx.insertUser(user));
    expect(await store.read((tx) => tx.getUser(user.id))).toEqual(user);
    expect(await store.read((tx) => tx.getUserByName(user.name))).toEqual(user);
    const changed = { ...user, role: 'admin' as const, disabled: true, passwordHash: null };
    await store.transaction((tx) => tx.updateUser(changed));
    expect(await store.read((tx) => tx.listUsers())).toEqual([changed]);
    await expect(
      store.transaction((tx) => tx.insertUser(makeUser({ name: user.name }))),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('keeps tokens by hash and revokes them once', async () => {
    const { store } = ctx.harness();
    const base = {
      kind: 'session' as const,
      subjectId: 'user_a',
      createdAt: 1,
      expiresAt: 99,
      revokedAt: null,
    };
    await store.transaction(async (tx) => {
      await tx.insertToken({ ...base, tokenHash: 'h1' });
      await tx.insertToken({ ...base, tokenHash: 'h2', expiresAt: null });
      await tx.insertToken({ ...base, tokenHash: 'h3', kind: 'agent' });
    });
    expect(await store.read((tx) => tx.getToken('h1'))).toEqual({ ...base, tokenHash: 'h1' });
    expect(await store.transaction((tx) => tx.revokeToken('h1', 50))).toBe(true);
    expect(await store.transaction((tx) => tx.revokeToken('h1', 60))).toBe(false);
    expect(await store.transaction((tx) => tx.revokeTokensOf('user_a', 'session', 70))).toBe(1);
    expect((await store.read((tx) => tx.getToken('h1')))?.revokedAt).toBe(50);
    expect((await store.read((tx) => tx.getToken('h2')))?.revokedAt).toBe(70);
    expect((await store.read((tx) => tx.getToken('h3')))?.revokedAt).toBeNull();
  });

  it("reads many tokens with their sessions' people in one call", async () => {
    const { store } = ctx.harness();
    const user = makeUser({ role: 'developer' });
    const token = { kind: 'session' as const, createdAt: 1, expiresAt: null, revokedAt: null };
    await store.transaction(async (tx) => {
      await tx.insertUser(user);
      await tx.insertToken({ ...token, tokenHash: 'c1', subjectId: user.id });
      await tx.insertToken({ ...token, tokenHash: 'c2', subjectId: 'user_gone', revokedAt: 5 });
      await tx.insertToken({ ...token, tokenHash: 'c3', kind: 'agent', subjectId: 'agent_a' });
    });
    const found = await store.read((tx) => tx.getCredentials(['c3', 'c1', 'c2', 'missing']));
    expect(found.sort((a, b) => a.token.tokenHash.localeCompare(b.token.tokenHash))).toEqual([
      { token: { ...token, tokenHash: 'c1', subjectId: user.id }, user },
      { token: { ...token, tokenHash: 'c2', subjectId: 'user_gone', revokedAt: 5 }, user: null },
      { token: { ...token, tokenHash: 'c3', kind: 'agent', subjectId: 'agent_a' }, user: null },
    ]);
    expect(await store.read((tx) => tx.getCredentials([]))).toEqual([]);
    for (const hash of ['c1', 'c1']) {
      expect(await store.read((tx) => tx.getCredentials([hash]))).toEqual([found[0]]);
    }
    expect(await store.read((tx) => tx.getCredentials(['missing']))).toEqual([]);
  });

  /** A signing key of `userId` with a fingerprint of its own. */
  const signingKeyOf = (userId: string) => ({
    id: uid('key'),
    userId,
    publicKey: 'MCowBQYDK2VwAyEA',
    fingerprint: uid('fp'),
    name: null,
    createdAt: 5,
    revokedAt: null,
    lastUsedAt: null,
  });

  it('lists signing keys of one person and finds a key by fingerprint', async () => {
    const { store } = ctx.harness();
    const key = signingKeyOf('user_a');
    const other = signingKeyOf('user_b');
    await store.transaction(async (tx) => {
      await tx.insertSigningKey(key);
      await tx.insertSigningKey(other);
    });
    expect(await store.read((tx) => tx.listSigningKeys('user_a'))).toEqual([key]);
    expect(await store.read((tx) => tx.getSigningKeyByFingerprint(other.fingerprint))).toEqual(other);
    expect(await store.read((tx) => tx.getSigningKeyByFingerprint('missing'))).toBeNull();
  });

  it('records when a key last signed a decision, and only that key', async () => {
    const { store } = ctx.harness();
    const used = signingKeyOf('user_a');
    const idle = signingKeyOf('user_a');
    await store.transaction(async (tx) => {
      await tx.insertSigningKey(used);
      await tx.insertSigningKey(idle);
    });
    await store.transaction((tx) => tx.touchSigningKey({ id: used.id, at: 7_000 }));
    const keys = await store.read((tx) => tx.listSigningKeys('user_a'));
    expect(keys.find((key) => key.id === used.id)?.lastUsedAt).toBe(7_000);
    expect(keys.find((key) => key.id === idle.id)?.lastUsedAt).toBeNull();
  });

  it('refuses one key fingerprint for a second person with CONFLICT', async () => {
    const { store } = ctx.harness();
    const key = signingKeyOf('user_a');
    await store.transaction((tx) => tx.insertSigningKey(key));
    await expect(
      store.transaction((tx) => tx.insertSigningKey({ ...key, id: uid('key'), userId: 'user_b' })),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('keeps the person who created an agent', async () => {
    const { store } = ctx.harness();
    const agent = makeAgent({ createdBy: 'user_owner' });
    await store.transaction((tx) => tx.insertAgent(agent));
    expect(await store.read((tx) => tx.getAgent(agent.id))).toEqual(agent);
  });

  it('updates a run only at the version it was read at', async () => {
    const { store } = ctx.harness();
    const run = makeRun({ instructions: ['first'] });
    await store.transaction((tx) => tx.insertRun(run));
    const stored = await store.read((tx) => tx.getRun(run.id));
    expect(stored).toEqual({ ...run, version: 1 });
    const paused = { ...run, status: 'paused' as const, updatedAt: 2_000 };
    expect(await store.transaction((tx) => tx.updateRun(paused, 1))).toBe(true);
    expect(await store.transaction((tx) => tx.updateRun({ ...run, status: 'stopped' }, 1))).toBe(false);
    expect(await store.read((tx) => tx.getRun(run.id))).toEqual({ ...paused, version: 2 });
    const again = { ...((await store.read((tx) => tx.getRun(run.id))) ?? paused), updatedAt: 3_000 };
    expect(await store.transaction((tx) => tx.updateRun(again, 2))).toBe(true);
    expect((await store.read((tx) => tx.listRuns({}))).items).toEqual([{ ...paused, updatedAt: 3_000 }]);
  });

  it('pages runs newest first and filters them', async () => {
    const { store } = ctx.harness();
    const runs = [1, 2, 3, 4, 5].map((n) =>
      makeRun({ id: `run_${n}`, createdAt: n * 1_000, agentId: n % 2 ? 'agent_odd' : 'agent_even' }),
    );
    await store.transaction(async (tx) => {
      for (const run of runs) await tx.insertRun(run);
    });
    const first = await store.read((tx) => tx.listRuns({ limit: 2 }));
    expect(first.items.map((r) => r.id)).toEqual(['run_5', 'run_4']);
    const second = await store.read((tx) => tx.listRuns({ limit: 2, cursor: first.nextCursor ?? '' }));
    expect(second.items.map((r) => r.id)).toEqual(['run_3', 'run_2']);
    const third = await store.read((tx) => tx.listRuns({ limit: 2, cursor: second.nextCursor ?? '' }));
    expect(third).toEqual({ items: [runs[0]], nextCursor: null });
    const odd = await store.read((tx) => tx.listRuns({ agentId: 'agent_odd', status: 'running' }));
    expect(odd.items.map((r) => r.id)).toEqual(['run_5', 'run_3', 'run_1']);
    await expect(store.read((tx) => tx.listRuns({ cursor: 'not-a-cursor' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('stores an idempotency key once; a second put loses', async () => {
    const { store } = ctx.harness();
    const record = {
      scope: 'agent_a',
      key: 'k-1',
      requestHash: 'rh',
      response: { gateId: 'gate_1' },
      createdAt: 10,
    };
    expect(await store.transaction((tx) => tx.putIdempotency(record))).toBe(true);
    expect(
      await store.transaction((tx) => tx.putIdempotency({ ...record, response: { gateId: 'gate_2' } })),
    ).toBe(false);
    expect(await store.transaction((tx) => tx.putIdempotency({ ...record, scope: 'agent_b' }))).toBe(true);
    expect(await store.read((tx) => tx.getIdempotency('agent_a', 'k-1'))).toEqual(record);
    expect(await store.read((tx) => tx.getIdempotency('agent_a', 'k-2'))).toBeNull();
  });

  it('lists remembered rules without revoked ones unless asked, and revokes once', async () => {
    const { store } = ctx.harness();
    const kept = makeRule({ argsHash: 'ah', expiresAt: 9_000 });
    const revoked = makeRule({ scope: 'run', runId: 'run_a', createdAt: 2_000, sourceGateId: 'gate_1' });
    await store.transaction(async (tx) => {
      await tx.insertRememberedRule(kept);
      await tx.insertRememberedRule(revoked);
    });
    expect(await store.transaction((tx) => tx.revokeRememberedRule(revoked.id, 'user_admin', 3_000))).toBe(
      true,
    );
    expect(await store.transaction((tx) => tx.revokeRememberedRule(revoked.id, 'user_admin', 4_000))).toBe(
      false,
    );
    const after = { ...revoked, revokedAt: 3_000, revokedBy: 'user_admin' };
    expect(await store.read((tx) => tx.getRememberedRule(revoked.id))).toEqual(after);
    expect(await store.read((tx) => tx.listRememberedRules({}))).toEqual([kept]);
    expect(await store.read((tx) => tx.listRememberedRules({ includeRevoked: true }))).toEqual([kept, after]);
  });

  it('lists the rules of one tool in force at a time, oldest first, then by id', async () => {
    const { store } = ctx.harness();
    const older = makeRule({ id: 'rule_b', tool: 'shell', createdAt: 1_000 });
    const sameTime = makeRule({ id: 'rule_a', tool: 'shell', createdAt: 1_000 });
    const newer = makeRule({ tool: 'shell', createdAt: 2_000, expiresAt: 5_000 });
    const expired = makeRule({ tool: 'shell', createdAt: 1_500, expiresAt: 3_000 });
    const revoked = makeRule({ tool: 'shell', createdAt: 1_200 });
    const otherTool = makeRule({ tool: 'write_file', createdAt: 500 });
    await store.transaction(async (tx) => {
      for (const rule of [newer, expired, otherTool, older, revoked, sameTime])
        await tx.insertRememberedRule(rule);
      await tx.revokeRememberedRule(revoked.id, 'user_admin', 1_300);
    });
    expect(await store.read((tx) => tx.listRulesInForce('shell', 3_000))).toEqual([sameTime, older, newer]);
    expect(await store.read((tx) => tx.listRulesInForce('shell', 2_999))).toEqual([
      sameTime,
      older,
      expired,
      newer,
    ]);
    expect(await store.read((tx) => tx.listRulesInForce('shell', 5_000))).toEqual([sameTime, older]);
    expect(await store.read((tx) => tx.listRulesInForce('write_file', 0))).toEqual([otherTool]);
    expect(await store.read((tx) => tx.listRulesInForce('read_file', 0))).toEqual([]);
  });

  it('keeps what a remembered rule covers, and reads a rule stored without one as null', async () => {
    const { store } = ctx.harness();
    const legacy = makeRule({ tool: 'edit_file' });
    const prefix = makeRule({
      tool: 'bash',
      match: { kind: 'prefix', prefix: 'npm test' },
      createdAt: 2_000,
    });
    const path = makeRule({ tool: 'edit_file', match: { kind: 'path', glob: 'src/**' }, createdAt: 3_000 });
    await store.transaction(async (tx) => {
      for (const rule of [legacy, prefix, path]) await tx.insertRememberedRule(rule);
    });
    expect(await store.read((tx) => tx.getRememberedRule(legacy.id))).toMatchObject({ match: null });
    expect(await store.read((tx) => tx.getRememberedRule(prefix.id))).toEqual(prefix);
    expect(await store.read((tx) => tx.listRememberedRules({}))).toEqual([legacy, prefix, path]);
  });

  it('lists confidence reports and interventions of a run in order', async () => {
    const { store } = ctx.harness();
    const reports = [makeReport({ createdAt: 2 }), makeReport({ createdAt: 1, taskId: 't1', reasons: [] })];
    const interventions = [
      makeIntervention({ createdAt: 1 }),
      makeIntervention({ kind: 'steer', instruction: 'use the staging db', createdAt: 5 }),
      makeIntervention({ runId: 'run_other', createdAt: 3 }),
    ];
    await store.transaction(async (tx) => {
      for (const report of reports) await tx.insertConfidenceReport(report);
      for (const intervention of interventions) await tx.insertIntervention(intervention);
    });
    expect(await store.read((tx) => tx.listConfidenceReports('run_a'))).toEqual([reports[1], reports[0]]);
    expect(await store.read((tx) => tx.listInterventions('run_a'))).toEqual(interventions.slice(0, 2));
    expect(await store.read((tx) => tx.listInterventions('run_a', 1))).toEqual([interventions[1]]);
  });

  it('numbers policy versions and treats the newest as active', async () => {
    const { store } = ctx.harness();
    expect(await store.read((tx) => tx.getActivePolicy())).toBeNull();
    const input = { source: 'rules: []\n', format: 'yaml' as const, createdBy: 'user_admin', createdAt: 1 };
    const v1 = await store.transaction((tx) => tx.insertPolicyVersion(input));
    const v2 = await store.transaction((tx) =>
      tx.insertPolicyVersion({ ...input, source: '{"rules":[]}', format: 'json', createdAt: 2 }),
    );
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect(await store.read((tx) => tx.getActivePolicy())).toEqual(v2);
    expect(await store.read((tx) => tx.getPolicyVersion(1))).toEqual({ ...input, version: 1 });
    expect(await store.read((tx) => tx.getPolicyVersion(3))).toBeNull();
    expect(await store.read((tx) => tx.listPolicyVersions())).toEqual([v1, v2]);
  });
}
