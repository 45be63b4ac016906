import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { type LiveServer, startLiveServer } from './testing/live-server.js';
import { runGit, WorkspaceGitError } from './workspace-git.js';

let server: LiveServer;
let root: string;
let gate: Gatehouse;

beforeEach(async () => {
  server = await startLiveServer();
  root = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-ws-live-'));
  gate = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
});

afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the workspace helpers against a live server', () => {
  it('pushes a phase branch over smart HTTP with the token from the environment', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const ws = await gate.workspace(run.id).clone(join(root, 'a'));
    await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
    writeFileSync(join(ws.dir, 'plan.md'), '# Plan\n');
    const commit = await ws.commitAll('Write the plan');
    expect(await ws.push()).toEqual({ branch: 'phase-1-strategic', commit });
    const info = await ws.info();
    expect(info.branches).toContainEqual({ name: 'phase-1-strategic', head: commit });
  });

  it('surfaces a refused push in a typed error with git’s reason', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const first = await gate.workspace(run.id).clone(join(root, 'a'));
    const second = await gate.workspace(run.id).clone(join(root, 'b'));
    for (const [ws, text] of [
      [first, 'one\n'],
      [second, 'two\n'],
    ] as const) {
      await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
      writeFileSync(join(ws.dir, 'plan.md'), text);
      await ws.commitAll(`plan ${text.trim()}`);
    }
    await first.push();
    const error = await second.push().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceGitError);
    expect(error).toMatchObject({ failure: 'push_rejected', command: 'push' });
    expect((error as Error).message).toMatch(/\[rejected\] +HEAD -> phase-1-strategic \(fetch first\)/);
  });

  it('types the server’s refusal of a push to main as push_rejected, with its reason', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const ws = await gate.workspace(run.id).clone(join(root, 'a'));
    writeFileSync(join(ws.dir, 'plan.md'), 'on main\n');
    await ws.commitAll('straight to main');
    const token = server.test.tokens.agent;
    const error = await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/main'], {
      cwd: ws.dir,
      token,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'push_rejected', command: 'push' });
    expect((error as Error).message).toMatch(
      /\[remote rejected\] HEAD -> main \(agents may push phase branches only\)/,
    );
  });

  it('fails at once, without a prompt, when the server refuses the token', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const { gitUrl } = await gate.workspace(run.id).info();
    const url = gitUrl.startsWith('/') ? `${server.url}${gitUrl}` : gitUrl;
    const started = Date.now();
    const error = await runGit(['clone', '--quiet', url, join(root, 'c')], {
      token: 'gha_not_a_token',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'failed', command: 'clone' });
    expect((error as Error).message).toMatch(/401|Authentication failed|could not read Username/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('appends to the run’s journal and reads it back in order', async () => {
    const run = await gate.createRun({ autonomy: 'partial' });
    const journal = gate.journal(run.id);
    const ids = await journal.append([
      { kind: 'chat', data: { role: 'assistant', content: 'Plan ready.' } },
      { kind: 'todos', data: { items: [{ text: 'write plan.md', status: 'completed' }] } },
    ]);
    expect(ids).toHaveLength(2);
    const { items } = await journal.list();
    expect(items.map((entry) => [entry.id, entry.kind])).toEqual([
      [ids[0], 'chat'],
      [ids[1], 'todos'],
    ]);
    expect((await journal.list({ kind: 'todos' })).items.map((entry) => entry.id)).toEqual([ids[1]]);
  });
});
