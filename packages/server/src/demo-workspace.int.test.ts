import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { type RunningServer, startServer } from './main.js';

const execGit = promisify(execFile);

const STORES = [
  { name: 'SQLite', env: async () => ({ env: {}, stop: async () => undefined }) },
  {
    name: 'Postgres',
    env: async () => {
      const postgres = await startTestPostgres();
      const env = {
        GATEHOUSE_DATABASE_URL: postgres.connectionString,
        GATEHOUSE_DATABASE_SCHEMA: postgres.schema,
      };
      return { env, stop: () => postgres.stop() };
    },
  },
] as const;

describe.each(STORES)('seedWorkspace on $name, for the demo agent run in the server process', (store) => {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(): Promise<{ server: RunningServer; dir: string; agent: string; person: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-demo-workspace-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const database = await store.env();
    cleanup.push(database.stop);
    const config = loadConfig(database.env, { dataDir: join(dir, 'data'), port: 0, logLevel: 'silent' });
    const server = await startServer({ config, print: () => {}, handleSignals: false });
    cleanup.push(() => server.close());
    const agent = await server.issueAgentToken('demo-agent');
    const person = await fetch(`${server.url}/v1/auth/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: server.loginToken }),
    }).then(async (response) => ((await response.json()) as { token: string }).token);
    return { server, dir, agent, person };
  }

  async function newRun(server: RunningServer, agent: string): Promise<string> {
    const response = await fetch(`${server.url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'demo' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { run: { id: string } }).run.id;
  }

  const git = async (token: string, cwd: string, ...args: string[]) =>
    (
      await execGit('git', ['-c', `http.extraHeader=Authorization: Bearer ${token}`, ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_TERMINAL_PROMPT: '0' },
      })
    ).stdout.trim();

  it('puts the files in main’s first commit, which a clone of the run’s repository starts from', {
    timeout: 60_000,
  }, async () => {
    const { server, dir, agent, person } = await start();
    const runId = await newRun(server, agent);
    await server.seedWorkspace(runId, { 'README.md': '# sample\n', 'src/posts.js': 'export {};\n' });

    await git(person, dir, 'clone', '--quiet', `${server.url}/v1/runs/${runId}/workspace.git`, 'repo');
    const repo = join(dir, 'repo');
    expect(await git(person, repo, 'rev-list', '--count', 'main')).toBe('1');
    expect((await git(person, repo, 'ls-tree', '-r', '--name-only', 'main')).split('\n')).toEqual([
      'README.md',
      'src/posts.js',
    ]);
    expect(await git(person, repo, 'show', 'main:README.md')).toBe('# sample');
    expect(await git(person, repo, 'log', '-1', '--format=%an', 'main')).toBe('Gatehouse');
  });

  it('never rewrites a repository that exists, and names an unknown run', { timeout: 60_000 }, async () => {
    const { server, dir, agent, person } = await start();
    const seeded = await newRun(server, agent);
    await server.seedWorkspace(seeded, { 'a.txt': 'first\n' });
    await expect(server.seedWorkspace(seeded, { 'a.txt': 'second\n' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    // A run whose repository someone already used keeps its empty first commit.
    const used = await newRun(server, agent);
    await git(person, dir, 'clone', '--quiet', `${server.url}/v1/runs/${used}/workspace.git`, 'used');
    await expect(server.seedWorkspace(used, { 'a.txt': 'late\n' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await git(person, join(dir, 'used'), 'fetch', '--quiet', 'origin');
    expect(await git(person, join(dir, 'used'), 'ls-tree', '-r', '--name-only', 'origin/main')).toBe('');

    await expect(server.seedWorkspace('run_missing', { 'a.txt': 'x\n' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // A path git refuses leaves no repository and no half-built folder behind.
    const refused = await newRun(server, agent);
    await expect(server.seedWorkspace(refused, { '../escape.txt': 'x\n' })).rejects.toThrow(/escape/);
    const repos = readdirSync(join(dir, 'data', 'repos'));
    expect(repos.filter((name) => name.startsWith('.new-') || name.startsWith(refused))).toEqual([]);
    expect(await git(person, dir, 'ls-remote', `${server.url}/v1/runs/${refused}/workspace.git`)).toMatch(
      /refs\/heads\/main/,
    );
  });
});
