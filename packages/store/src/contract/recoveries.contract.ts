import { expect, it } from 'vitest';
import type { FalsePositiveRecord, RecoveryRecord } from '../recovery-types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

function makeRecovery(overrides: Partial<RecoveryRecord> = {}): RecoveryRecord {
  return {
    runId: uid('run'),
    key: 'lazy.placeholder_body|src/a.ts|total',
    pattern: 'lazy.placeholder_body',
    file: 'src/a.ts',
    name: 'total',
    line: 4,
    severity: 'high',
    status: 'recovering',
    attempts: 1,
    signatures: ['f1'],
    history: [{ attempt: 1, at: 1_000, fingerprint: 'f1', line: 4, message: 'placeholder body' }],
    gateId: null,
    escalatedBy: [],
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

function makeFalsePositive(overrides: Partial<FalsePositiveRecord> = {}): FalsePositiveRecord {
  return {
    id: uid('fp'),
    pattern: 'lazy.error_swallowed',
    runId: uid('run'),
    findingKey: 'lazy.error_swallowed|src/b.ts|12',
    file: 'src/b.ts',
    gateId: 'gate_1',
    confirmedBy: 'user:user_a',
    createdAt: 2_000,
    ...overrides,
  };
}

/** Recovery state per run and finding, and confirmed false positives. */
export function describeRecoveryContract(ctx: ContractContext): void {
  it('round-trips a recovery by run and finding key and lists a run’s recoveries oldest first', async () => {
    const { store } = ctx.harness();
    const first = makeRecovery();
    const second = makeRecovery({ runId: first.runId, key: 'lazy.todo|src/c.ts|9', createdAt: 3_000 });
    const elsewhere = makeRecovery();
    await store.transaction(async (tx) => {
      await tx.insertRecovery(second);
      await tx.insertRecovery(first);
      await tx.insertRecovery(elsewhere);
    });
    const read = await store.read((tx) => tx.getRecovery(first.runId, first.key));
    expect(read).toEqual({ ...first, version: 1 });
    expect(await store.read((tx) => tx.getRecovery(first.runId, 'missing'))).toBeNull();
    expect(await store.read((tx) => tx.listRecoveries(first.runId))).toEqual([first, second]);
  });

  it('refuses a second recovery of the same finding in the same run', async () => {
    const { store } = ctx.harness();
    const recovery = makeRecovery();
    await store.transaction((tx) => tx.insertRecovery(recovery));
    await expect(store.transaction((tx) => tx.insertRecovery({ ...recovery }))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('updates a recovery only at the version it was read at', async () => {
    const { store } = ctx.harness();
    const recovery = makeRecovery();
    await store.transaction((tx) => tx.insertRecovery(recovery));
    const escalated: RecoveryRecord = { ...recovery, status: 'escalated', attempts: 3, gateId: 'gate_9' };
    expect(await store.transaction((tx) => tx.updateRecovery(escalated, 1))).toBe(true);
    expect(await store.transaction((tx) => tx.updateRecovery({ ...recovery, attempts: 2 }, 1))).toBe(false);
    const read = await store.read((tx) => tx.getRecovery(recovery.runId, recovery.key));
    expect(read).toEqual({ ...escalated, version: 2 });
  });

  it('keeps confirmed false positives per pattern and per run', async () => {
    const { store } = ctx.harness();
    const runId = uid('run');
    const first = makeFalsePositive({ runId });
    const second = makeFalsePositive({ runId, pattern: 'lazy.todo', createdAt: 3_000 });
    const later = makeFalsePositive({ createdAt: 4_000, runId: null, gateId: null });
    await store.transaction(async (tx) => {
      await tx.insertFalsePositive(later);
      await tx.insertFalsePositive(second);
      await tx.insertFalsePositive(first);
    });
    const byPattern = await store.read((tx) => tx.listFalsePositives({ pattern: 'lazy.error_swallowed' }));
    expect(byPattern).toEqual([first, later]);
    expect(await store.read((tx) => tx.listFalsePositives({ runId }))).toEqual([first, second]);
    expect(await store.read((tx) => tx.listFalsePositives({}))).toHaveLength(3);
  });
}
