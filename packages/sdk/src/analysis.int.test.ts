import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { type LiveServer, startLiveServer } from './testing/live-server.js';

const BEFORE = `import { expect, it } from 'vitest';
import { total } from './cart.js';

it('sums the total', () => {
  expect(total([2, 3])).toBe(5);
});

it('is zero for no items', () => {
  expect(total([])).toBe(0);
});
`;

const AFTER = `import { expect, it } from 'vitest';
import { total } from './cart.js';

it('sums the total', () => {
  expect(total([2, 3])).toBe(5);
});
`;

const DELETE_TEST = [
  'diff --git a/src/cart.test.ts b/src/cart.test.ts',
  '--- a/src/cart.test.ts',
  '+++ b/src/cart.test.ts',
  '@@ -5,7 +5,3 @@',
  " it('sums the total', () => {",
  '   expect(total([2, 3])).toBe(5);',
  ' });',
  '-',
  "-it('is zero for no items', () => {",
  '-  expect(total([])).toBe(0);',
  '-});',
  '',
].join('\n');

let server: LiveServer;
let gate: Gatehouse;

beforeAll(async () => {
  server = await startLiveServer();
  gate = new Gatehouse({
    url: server.url,
    token: server.test.tokens.agent,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
  });
});

afterAll(async () => {
  await server.close();
});

const removeTest = { files: [{ path: 'src/cart.test.ts', before: BEFORE, after: AFTER }] };

describe('analyze', () => {
  it('finds the test a diff deletes and says a destructive-action gate is needed, opening none without a run', async () => {
    const answer = await gate.analyze({ diff: DELETE_TEST });
    expect(answer.findings).toContainEqual(
      expect.objectContaining({
        pattern: 'test.removed',
        file: 'src/cart.test.ts',
        name: 'is zero for no items',
        severity: 'high',
      }),
    );
    expect(answer.facts.testsRemoved).toBe(1);
    expect(answer.verdict.destructive.triggered).toBe(true);
    expect(answer.gates).toEqual([]);
  });

  it('refuses a call that gives both or neither of diff and files, before sending anything', async () => {
    await expect(gate.analyze({ diff: DELETE_TEST, ...removeTest } as never)).rejects.toThrow(
      'give exactly one of diff',
    );
    await expect(gate.analyze({} as never)).rejects.toThrow(TypeError);
  });
});

describe('analyzeAndWait', () => {
  it('waits for the destructive-action gate and proceeds once a person approves', async () => {
    const run = await gate.createRun({ title: 'remove a test' });
    const seen: string[] = [];
    const waiting = gate.analyzeAndWait({
      runId: run.id,
      ...removeTest,
      action: { tool: 'write_file', args: { path: 'src/cart.test.ts' } },
      onGate: (gateId) => seen.push(gateId),
    });
    const open = await server.pendingGate(`&runId=${run.id}`);
    expect(open).toMatchObject({ type: 'destructive_action', action: { tool: 'write_file' } });
    await server.decide(
      open.id,
      { option: 'approve', reason: 'the case moved to cart.int.test.ts' },
      server.test.tokens.admin,
    );
    const answer = await waiting;
    expect(seen).toEqual([open.id]);
    expect(answer.proceed).toBe(true);
    expect(answer.blocking).toEqual([]);
    expect(answer.decisions).toEqual([
      expect.objectContaining({
        outcome: 'approved',
        gateId: open.id,
        reason: 'the case moved to cart.int.test.ts',
      }),
    ]);
    expect(answer.analysis.findings.map((finding) => finding.pattern)).toContain('test.removed');
  });

  it('does not proceed when a person rejects, and says why', async () => {
    const run = await gate.createRun({ title: 'remove a test again' });
    const waiting = gate.analyzeAndWait({ runId: run.id, ...removeTest });
    const open = await server.pendingGate(`&runId=${run.id}`);
    await server.decide(
      open.id,
      { option: 'reject', reason: 'keep the empty-cart case' },
      server.test.tokens.admin,
    );
    const answer = await waiting;
    expect(answer.proceed).toBe(false);
    expect(answer.blocking).toEqual([
      expect.objectContaining({ outcome: 'denied', gateId: open.id, reason: 'keep the empty-cart case' }),
    ]);
  });

  it('proceeds at once for a harmless change, with no gate to wait on', async () => {
    const run = await gate.createRun({ title: 'add a test' });
    const answer = await gate.analyzeAndWait({
      runId: run.id,
      files: [{ path: 'src/cart.test.ts', before: AFTER, after: BEFORE }],
    });
    expect(answer).toMatchObject({ proceed: true, decisions: [], blocking: [] });
    expect(answer.analysis.facts.testsAdded).toBe(1);
  });
});
