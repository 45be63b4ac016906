import { expect, it } from 'vitest';
import type { DetectionRecord, WhitelistRecord } from '../whitelist-types.js';
import { uid } from './fixtures.js';
import type { ContractContext } from './harness.js';

function makeEntry(overrides: Partial<WhitelistRecord> = {}): WhitelistRecord {
  return {
    id: uid('wl'),
    pattern: 'lazy.error_swallowed',
    scope: 'file',
    path: 'src/legacy/**',
    agentId: null,
    justification: 'legacy adapters swallow errors by design',
    createdBy: 'user:user_a',
    createdAt: 1_000,
    expiresAt: 1_000 + 90 * 86_400_000,
    reviewedAt: null,
    reviewGateId: null,
    sourceGateId: null,
    suppressed: 0,
    ...overrides,
  };
}

function makeDetection(overrides: Partial<DetectionRecord> = {}): DetectionRecord {
  return {
    id: uid('det'),
    pattern: uid('pattern'),
    runId: uid('run'),
    findingKey: 'p|src/a.ts|3',
    file: 'src/a.ts',
    snippet: 'try { run() } catch {}',
    confidence: 0.65,
    suppressedBy: null,
    createdAt: 5_000,
    ...overrides,
  };
}

/** Whitelist entries, detections per pattern and false-positive alerts. */
export function describeWhitelistContract(ctx: ContractContext): void {
  it('round-trips, updates, counts suppressions and deletes a whitelist entry', async () => {
    const { store } = ctx.harness();
    const entry = makeEntry();
    await store.transaction((tx) => tx.insertWhitelist(entry));
    expect(await store.read((tx) => tx.getWhitelist(entry.id))).toEqual(entry);
    const renewed = { ...entry, expiresAt: entry.expiresAt + 1, reviewedAt: 2_000, reviewGateId: 'gate_r' };
    expect(await store.transaction((tx) => tx.updateWhitelist(renewed))).toBe(true);
    await store.transaction(async (tx) => {
      await tx.addWhitelistSuppressed(entry.id, 2);
      await tx.addWhitelistSuppressed(entry.id, 3);
    });
    expect(await store.read((tx) => tx.getWhitelist(entry.id))).toEqual({ ...renewed, suppressed: 5 });
    expect((await store.read((tx) => tx.listWhitelists())).map((row) => row.id)).toContain(entry.id);
    expect(await store.transaction((tx) => tx.deleteWhitelist(entry.id))).toBe(true);
    expect(await store.transaction((tx) => tx.deleteWhitelist(entry.id))).toBe(false);
    expect(await store.read((tx) => tx.getWhitelist(entry.id))).toBeNull();
    expect(await store.transaction((tx) => tx.updateWhitelist(renewed))).toBe(false);
  });

  it('records one re-review gate per entry: a second writer loses', async () => {
    const { store } = ctx.harness();
    const entry = makeEntry();
    await store.transaction((tx) => tx.insertWhitelist(entry));
    expect(await store.transaction((tx) => tx.setWhitelistReviewGate(entry.id, 'gate_a'))).toBe(true);
    expect(await store.transaction((tx) => tx.setWhitelistReviewGate(entry.id, 'gate_b'))).toBe(false);
    expect((await store.read((tx) => tx.getWhitelist(entry.id)))?.reviewGateId).toBe('gate_a');
  });

  it('lists detections newest first by pattern, run and finding, and counts them per pattern', async () => {
    const { store } = ctx.harness();
    const pattern = uid('pattern');
    const older = makeDetection({ pattern, runId: uid('run'), createdAt: 1_000 });
    const newer = makeDetection({ pattern, createdAt: 2_000, suppressedBy: 'wl_1', confidence: 0.35 });
    const other = makeDetection();
    await store.transaction((tx) => tx.insertDetections([older, newer, other]));
    expect(await store.read((tx) => tx.listDetections({ pattern }))).toEqual([newer, older]);
    expect(
      await store.read((tx) => tx.listDetections({ runId: older.runId ?? '', findingKey: older.findingKey })),
    ).toEqual([older]);
    const counts = await store.read((tx) => tx.countDetections());
    expect(counts.find((row) => row.pattern === pattern)).toEqual({ pattern, detections: 2, suppressed: 1 });
  });

  it('stores the detections of a change with thousands of findings in one call', async () => {
    const { store } = ctx.harness();
    const pattern = uid('pattern');
    const runId = uid('run');
    // 9 values a row: past SQLite's 32,766 bound variables and Postgres's 65,535 in one statement.
    const many = Array.from({ length: 8_000 }, (_, i) => makeDetection({ pattern, runId, createdAt: i }));
    await store.transaction((tx) => tx.insertDetections(many));
    expect(await store.read((tx) => tx.listDetections({ runId }))).toHaveLength(8_000);
  });

  it('marks a pattern over the alert threshold and back under it', async () => {
    const { store } = ctx.harness();
    const pattern = uid('pattern');
    expect(await store.read((tx) => tx.getPatternAlert(pattern))).toBeNull();
    await store.transaction((tx) => tx.setPatternAlert(pattern, 7_000));
    await store.transaction((tx) => tx.setPatternAlert(pattern, 8_000));
    expect(await store.read((tx) => tx.getPatternAlert(pattern))).toBe(8_000);
    await store.transaction((tx) => tx.setPatternAlert(pattern, null));
    expect(await store.read((tx) => tx.getPatternAlert(pattern))).toBeNull();
  });
}
