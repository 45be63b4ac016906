import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decideTestGate } from '../testing/gates.js';
import { mustGit, runGit, tempDir } from '../testing/git-client.js';
import { commitFiles as commitOnBranch } from '../testing/git-fixtures.js';
import { type ListeningApp, startListeningApp } from '../testing/listening-app.js';
import { approveTestPlan } from '../testing/runs.js';
import { bearer, type TestDialect } from '../testing/test-app.js';
import { ensureRepo, reposDirOf } from '../workspace/repos.js';

const SPEC = [
  "import { expect, it } from 'vitest';",
  "import { total } from './cart.js';",
  '',
  "it('adds the prices', () => {",
  '  expect(total([1, 2])).toBe(3);',
  '});',
  '',
  "it('is zero for an empty cart', () => {",
  '  expect(total([])).toBe(0);',
  '});',
  '',
];
/** The spec with its second test deleted. */
const SPEC_CUT = SPEC.slice(0, 7);
/** The spec's tests kept by name with their bodies emptied. */
const SPEC_HOLLOW = [
  "import { it } from 'vitest';",
  '',
  "it('adds the prices', () => {});",
  '',
  "it('is zero for an empty cart', () => {});",
  '',
];
const BRANCH = 'phase-1-strategic';
const dialects: TestDialect[] = ['sqlite', 'postgres'];

describe.each(dialects)('change analysis on every push of a phase branch on %s', (dialect) => {
  let server: ListeningApp<{ now(): number }>;
  const dirs: Array<{ remove(): void }> = [];

  beforeAll(async () => {
    server = await startListeningApp({ dialect });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  async function newRun(): Promise<string> {
    const response = await server.test.app.inject({
      method: 'POST',
      url: '/v1/runs',
      headers: bearer(server.test.tokens.agent),
      payload: {},
    });
    return (response.json() as { run: { id: string } }).run.id;
  }

  async function clone(runId: string, token: string, branch?: string): Promise<string> {
    const dir = tempDir();
    dirs.push(dir);
    const url = `${server.url}/v1/runs/${runId}/workspace.git`;
    const args = branch === undefined ? [] : ['--branch', branch];
    await mustGit(['clone', '--quiet', ...args, url, 'work'], { cwd: dir.path, token });
    return join(dir.path, 'work');
  }

  /** Writes `files` in `work`, commits them and returns the new head. */
  async function commitFiles(work: string, files: Record<string, string | Buffer>): Promise<string> {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    await mustGit(['add', '--all'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'work'], { cwd: work });
    return mustGit(['rev-parse', 'HEAD'], { cwd: work });
  }

  async function push(work: string, token = server.test.tokens.agent, branch = BRANCH): Promise<void> {
    const pushed = await runGit(['push', 'origin', branch], { cwd: work, token });
    expect(pushed.code, pushed.stderr).toBe(0);
    await server.test.services.pushAnalysis.idle();
  }

  /** A run whose agent has pushed `BRANCH` adding the cart spec; returns the clone and its head. */
  async function checkpoint(runId: string): Promise<void> {
    await approveTestPlan(server.test, runId);
    const response = await server.test.app.inject({
      method: 'POST',
      url: `/v1/runs/${runId}/checkpoint`,
      headers: bearer(server.test.tokens.agent),
      payload: { phase: 1, type: 'strategic', branch: BRANCH },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** Commits `files` on the run's main, as a merged earlier phase would have left them. */
  async function onMain(runId: string, files: Record<string, string | Buffer>): Promise<string> {
    const repo = await ensureRepo(reposDirOf(server.test.config), runId);
    return commitOnBranch(repo, 'main', files);
  }

  /** A run whose main holds the cart spec and whose agent has pushed `BRANCH` with a readme. */
  async function runWithSpec(): Promise<{ runId: string; work: string; base: string }> {
    const runId = await newRun();
    const base = await onMain(runId, { 'src/cart.test.ts': SPEC.join('\n') });
    const work = await clone(runId, server.test.tokens.agent);
    await mustGit(['checkout', '--quiet', '-b', BRANCH], { cwd: work });
    await commitFiles(work, { 'README.md': '# Cart\n' });
    await push(work);
    return { runId, work, base };
  }

  async function gatesOf(runId: string, type = 'destructive_action') {
    return (await server.test.store.read((tx) => tx.listGates({ runId, type }))).items;
  }

  async function auditOf(runId: string, kind: string) {
    return (await server.test.services.audit.query({ subject: runId, kind })).items;
  }

  it('opens a destructive_action gate when the run’s agent pushes a branch that deletes a test', async () => {
    const { runId, work, base } = await runWithSpec();
    // The branch's first push only adds a readme: analysed, nothing opened.
    expect(await gatesOf(runId)).toEqual([]);
    expect(await auditOf(runId, 'analysis.recorded')).toHaveLength(1);

    const second = await commitFiles(work, { 'src/cart.test.ts': SPEC_CUT.join('\n') });
    await push(work);

    const [gate, ...others] = await gatesOf(runId);
    expect(others).toEqual([]);
    expect(gate).toMatchObject({ status: 'pending', runId, agentId: server.test.ids.agentId });
    expect(gate?.context).toMatchObject({
      actionType: 'test_deletion',
      testsRemoved: 1,
      files: ['src/cart.test.ts'],
      findings: [expect.objectContaining({ kind: 'test_removed', name: 'is zero for an empty cart' })],
    });
    expect(gate?.action).toEqual({ tool: 'git_push', args: { branch: BRANCH, from: base, to: second } });
    const recorded = await auditOf(runId, 'analysis.recorded');
    expect(recorded).toHaveLength(2);
    expect(recorded.map((event) => event.data)).toContainEqual(
      expect.objectContaining({ gates: [gate?.id], destructive: ['test_deletion'] }),
    );
    expect(await auditOf(runId, 'analysis.push_failed')).toEqual([]);
  });

  it('judges each push against main, so emptying tests then deleting their file opens a gate', async () => {
    const runId = await newRun();
    const base = await onMain(runId, {
      'src/cart.ts': 'export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n',
      'src/cart.test.ts': SPEC.join('\n'),
    });
    const work = await clone(runId, server.test.tokens.agent);
    await mustGit(['checkout', '--quiet', '-b', BRANCH], { cwd: work });
    await commitFiles(work, { 'src/cart.test.ts': SPEC_HOLLOW.join('\n') });
    await push(work);
    await mustGit(['rm', '--quiet', 'src/cart.test.ts'], { cwd: work });
    await mustGit(['commit', '--quiet', '-m', 'drop the empty spec'], { cwd: work });
    const second = await mustGit(['rev-parse', 'HEAD'], { cwd: work });
    await push(work);

    expect(await auditOf(runId, 'analysis.push_failed')).toEqual([]);
    const pending = (await gatesOf(runId)).filter((gate) => gate.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    const judged = pending.map((gate) => {
      const repeats = gate.context.repeats as { latest?: { action?: unknown } } | undefined;
      return repeats?.latest?.action ?? gate.action;
    });
    expect(judged).toContainEqual({ tool: 'git_push', args: { branch: BRANCH, from: base, to: second } });
    const files = pending.flatMap((gate) => gate.context.files as string[]);
    expect(files).toContain('src/cart.test.ts');
  });

  it('asks no second time about a deletion a person approved on the same branch', async () => {
    const { runId, work } = await runWithSpec();
    await commitFiles(work, { 'src/cart.test.ts': SPEC_CUT.join('\n') });
    await push(work);
    const [gate] = await gatesOf(runId);
    const approved = await decideTestGate(server.test, server.test.tokens.techLead, gate?.id as string, {
      option: 'approve',
      reason: 'the empty-cart case moved to the checkout spec',
    });
    expect(approved.statusCode, approved.body).toBe(200);

    await commitFiles(work, {
      'src/cart.ts': 'export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n',
    });
    await push(work);
    expect((await gatesOf(runId)).map((each) => each.status)).toEqual(['approved']);
    const recorded = await auditOf(runId, 'analysis.recorded');
    expect(recorded).toHaveLength(3);
  });

  it('opens nothing for a harmless push', async () => {
    const { runId, work } = await runWithSpec();
    await commitFiles(work, {
      'src/cart.ts': 'export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);\n',
    });
    await push(work);
    expect(await server.test.store.read((tx) => tx.listGates({ runId }))).toMatchObject({ items: [] });
    expect(await auditOf(runId, 'analysis.recorded')).toHaveLength(2);
  });

  it('leaves a person’s push to the branch under review unanalysed', async () => {
    const { runId } = await runWithSpec();
    await checkpoint(runId);
    const token = server.test.tokens.developer;
    const work = await clone(runId, token, BRANCH);
    await commitFiles(work, { 'src/cart.test.ts': SPEC_CUT.join('\n') });
    await push(work, token);

    const pushed = await auditOf(runId, 'workspace.pushed');
    expect(pushed.map((event) => event.actor)).toContain(`user:${server.test.ids.developerId}`);
    expect(await gatesOf(runId)).toEqual([]);
    expect(await auditOf(runId, 'analysis.recorded')).toHaveLength(1);
    expect(await auditOf(runId, 'analysis.push_failed')).toEqual([]);
  });

  it('analyses the text files of a push, leaving out binary files and files over 1 MiB', async () => {
    const runId = await newRun();
    const binary = Buffer.concat([Buffer.from([0, 1, 2, 0, 255]), randomBytes(4096)]);
    // A generated spec past 1 MiB: the test it loses on the branch must go unnoticed.
    const cases = Array.from(
      { length: 24_000 },
      (_, n) => `it('case ${n}', () => expect(${n}).toBe(${n}));\n`,
    );
    const big = cases.join('');
    await onMain(runId, {
      'assets/logo.png': binary,
      'src/big.test.ts': big,
      'src/cart.test.ts': SPEC.join('\n'),
    });
    const work = await clone(runId, server.test.tokens.agent);
    await mustGit(['checkout', '--quiet', '-b', BRANCH], { cwd: work });
    await commitFiles(work, {
      'assets/logo.png': randomBytes(4096),
      'src/big.test.ts': cases.slice(1).join(''),
      'src/cart.test.ts': SPEC_CUT.join('\n'),
    });
    await push(work);

    expect(await auditOf(runId, 'analysis.push_failed')).toEqual([]);
    const [gate] = await gatesOf(runId);
    expect(gate?.context).toMatchObject({ testsRemoved: 1, files: ['src/cart.test.ts'] });
  });

  it('analyses a push to a run frozen for its phase review: the destructive gate still opens', async () => {
    const { runId, work } = await runWithSpec();
    await checkpoint(runId);
    // The agent pushes (or its push is analysed) after the run froze: the change is still judged.
    await mustGit(['checkout', '--quiet', '-b', 'phase-2-tactical'], { cwd: work });
    await commitFiles(work, { 'src/cart.test.ts': SPEC_CUT.join('\n') });
    await push(work, server.test.tokens.agent, 'phase-2-tactical');

    expect(await auditOf(runId, 'analysis.push_failed')).toEqual([]);
    const [gate] = await gatesOf(runId);
    expect(gate).toMatchObject({ status: 'pending', runId });
    expect(gate?.context).toMatchObject({ testsRemoved: 1, files: ['src/cart.test.ts'] });
  });

  it('audits an analysis that fails without failing the push', async () => {
    const { runId } = await runWithSpec();
    const missing = 'f'.repeat(40);
    server.test.services.pushAnalysis.afterAgentPush(runId, server.test.ids.agentId, [
      { ref: `refs/heads/${BRANCH}`, branch: BRANCH, old: null, new: missing },
    ]);
    await server.test.services.pushAnalysis.idle();

    const [failed, ...others] = await auditOf(runId, 'analysis.push_failed');
    expect(others).toEqual([]);
    expect(failed?.actor).toBe(`agent:${server.test.ids.agentId}`);
    expect(failed?.data).toMatchObject({ runId, branch: BRANCH, new: missing });
  });
});
