import { expect, it } from 'vitest';
import type { TrustProposalRecord } from '../trust-types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

function makeProposal(overrides: Partial<TrustProposalRecord> = {}): TrustProposalRecord {
  return {
    id: uid('tp'),
    key: uid('key'),
    agentId: 'agent_a',
    tool: 'bash',
    scope: { kind: 'prefix', prefix: 'npm test' },
    acceptedScope: null,
    status: 'proposed',
    evidence: { evidence: { approvals: 12, people: ['user:a', 'user:b'] }, replay: { wouldAllow: 12 } },
    createdAt: 1_000,
    updatedAt: 1_000,
    decidedBy: null,
    acceptedBy: null,
    ruleId: null,
    expiresAt: null,
    policyVersion: null,
    revokedReason: null,
    kind: 'scope',
    autonomy: null,
    ...overrides,
  };
}

/** Trust proposals: round trip, status filter, and updates fenced on the status. */
export function describeTrustContract(ctx: ContractContext): void {
  it('round-trips a trust proposal with its scope and evidence', async () => {
    const { store } = ctx.harness();
    const proposal = makeProposal();
    await store.transaction((tx) => tx.insertTrustProposal(proposal));
    expect(await store.read((tx) => tx.getTrustProposal(proposal.id))).toEqual(proposal);
    expect(await store.read((tx) => tx.getTrustProposal('tp_missing'))).toBeNull();
  });

  it('round-trips an autonomy proposal with its step', async () => {
    const { store } = ctx.harness();
    const proposal = makeProposal({
      kind: 'autonomy',
      tool: '',
      autonomy: { from: 'guided', to: 'partial' },
    });
    await store.transaction((tx) => tx.insertTrustProposal(proposal));
    expect(await store.read((tx) => tx.getTrustProposal(proposal.id))).toEqual(proposal);
    const accepted = { ...proposal, status: 'accepted' as const, acceptedBy: 'user:ann', updatedAt: 2_000 };
    expect(await store.transaction((tx) => tx.updateTrustProposal(accepted, 'proposed'))).toBe(true);
    expect(await store.read((tx) => tx.getTrustProposal(proposal.id))).toEqual(accepted);
  });

  it('lists proposals newest first, filtered by status', async () => {
    const { store } = ctx.harness();
    const older = makeProposal({ createdAt: 1_000 });
    const newer = makeProposal({ createdAt: 2_000, status: 'dismissed' });
    await store.transaction(async (tx) => {
      await tx.insertTrustProposal(older);
      await tx.insertTrustProposal(newer);
    });
    const all = await store.read((tx) => tx.listTrustProposals({}));
    expect(all.map((p) => p.id)).toEqual([newer.id, older.id]);
    const proposed = await store.read((tx) => tx.listTrustProposals({ status: ['proposed'] }));
    expect(proposed.map((p) => p.id)).toEqual([older.id]);
    expect(await store.read((tx) => tx.listTrustProposals({ status: [] }))).toEqual([]);
  });

  it("lists one agent's proposals in a status, and no other agent's", async () => {
    const { store } = ctx.harness();
    const mine = makeProposal({ agentId: 'agent_mine', status: 'accepted', createdAt: 1_000 });
    const myAutonomy = makeProposal({
      agentId: 'agent_mine',
      status: 'accepted',
      kind: 'autonomy',
      tool: '',
      autonomy: { from: 'guided', to: 'partial' },
      createdAt: 2_000,
    });
    const myProposed = makeProposal({ agentId: 'agent_mine' });
    const theirs = makeProposal({ agentId: 'agent_theirs', status: 'accepted' });
    await store.transaction(async (tx) => {
      for (const proposal of [mine, myAutonomy, myProposed, theirs]) await tx.insertTrustProposal(proposal);
    });
    const accepted = await store.read((tx) =>
      tx.listTrustProposals({ status: ['accepted'], agentId: 'agent_mine' }),
    );
    expect(accepted.map((p) => p.id)).toEqual([myAutonomy.id, mine.id]);
    const all = await store.read((tx) => tx.listTrustProposals({ agentId: 'agent_mine' }));
    expect(all.map((p) => p.id).sort()).toEqual([mine.id, myAutonomy.id, myProposed.id].sort());
    expect(await store.read((tx) => tx.listTrustProposals({ agentId: 'agent_none' }))).toEqual([]);
  });

  it('holds one open proposal per key; decided ones may share it', async () => {
    const { store } = ctx.harness();
    const key = uid('key');
    await store.transaction((tx) => tx.insertTrustProposal(makeProposal({ key, status: 'dismissed' })));
    await store.transaction((tx) => tx.insertTrustProposal(makeProposal({ key })));
    await expect(
      store.transaction((tx) => tx.insertTrustProposal(makeProposal({ key }))),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await store.read((tx) => tx.listTrustProposals({ status: ['proposed'] }))).toHaveLength(1);
  });

  it('updates a proposal only from the status the writer read', async () => {
    const { store } = ctx.harness();
    const proposal = makeProposal();
    await store.transaction((tx) => tx.insertTrustProposal(proposal));
    const accepted: TrustProposalRecord = {
      ...proposal,
      status: 'accepted',
      acceptedScope: { kind: 'command', command: 'npm test' },
      acceptedBy: 'user:a',
      decidedBy: 'user:a',
      ruleId: 'rule_1',
      expiresAt: 9_000_000_000_000,
      policyVersion: 4,
      updatedAt: 2_000,
    };
    expect(await store.transaction((tx) => tx.updateTrustProposal(accepted, 'proposed'))).toBe(true);
    expect(await store.transaction((tx) => tx.updateTrustProposal(accepted, 'proposed'))).toBe(false);
    expect(await store.read((tx) => tx.getTrustProposal(proposal.id))).toEqual(accepted);
  });
}
