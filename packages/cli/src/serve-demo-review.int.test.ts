import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, tempDir } from './testing/cli-process.js';
import { callServe, signInByLoginLink } from './testing/serve-session.js';

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
type Json = any;

const execGit = promisify(execFile);

/** Git as the signed-in person, the session token passed through the environment only. */
async function git(token: string, cwd: string, ...args: string[]): Promise<string> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: cwd,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Bearer ${token}`,
  };
  return (await execGit('git', args, { cwd, env })).stdout.trim();
}

/** The demo as `npm start` runs it, on SQLite, or on the test Postgres with `--demo` all the same. */
const STORES = [
  { name: 'SQLite', env: async () => ({ env: {}, stop: async () => undefined }) },
  {
    name: 'Postgres',
    env: async () => {
      const postgres = await startTestPostgres();
      return {
        env: {
          GATEHOUSE_DATABASE_URL: postgres.connectionString,
          GATEHOUSE_DATABASE_SCHEMA: postgres.schema,
        },
        stop: () => postgres.stop(),
      };
    },
  },
] as const;

describe.each(STORES)(
  'gatehouse serve --demo on $name: the demo’s reviews are real pull requests',
  (store) => {
    const cleanup: (() => unknown)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    }, 30_000);

    it('pushes the plan as phase 1 with a diff, then squash-merges the final review into main', async () => {
      const temp = tempDir();
      cleanup.push(temp.remove);
      const database = await store.env();
      cleanup.push(database.stop);
      const server = await startServe(join(temp.dir, 'data'), { args: ['--demo'], env: database.env });
      cleanup.push(() => server.stop());
      const session = await signInByLoginLink(server);
      const seen: unknown[] = [];
      const pending = async (type: string): Promise<Json> => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const stopped = /the demo agent stopped: .*/.exec(server.output());
          if (stopped) throw new Error(stopped[0]);
          const { items } = await callServe(server, session, `/v1/gates?status=pending&type=${type}`);
          const gate = (items as Json[]).find((item) => !seen.includes(item.id));
          if (gate !== undefined) {
            seen.push(gate.id);
            return gate;
          }
          if (Date.now() > deadline) throw new Error(`no pending ${type} gate:\n${server.output()}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const approve = (gate: Json) =>
        callServe(server, session, `/v1/gates/${gate.id as string}/decide`, { option: 'approve' });

      // Gate 0 carries the plan: its design and tasks, and PLAN.md as the artifact.
      const intent = await pending('intent_approval');
      const { gate: intentGate } = await callServe(server, session, `/v1/gates/${intent.id as string}`);
      expect(intentGate.context).toMatchObject({ design: expect.stringContaining('slugify(title)') });
      expect(intentGate.context.tasks.length).toBeGreaterThanOrEqual(3);
      expect(intentGate.artifacts).toContain('PLAN.md');
      await approve(intent);

      // Phase 1's review: a pushed branch, a diff against the sample project on main, the plan in it.
      const phase1 = await pending('phase_review');
      const { gate: phase1Gate } = await callServe(server, session, `/v1/gates/${phase1.id as string}`);
      expect(phase1Gate.context).toMatchObject({ branch: 'phase-1-strategic', reviewId: expect.any(String) });
      const reviewId = phase1Gate.context.reviewId as string;
      const { review } = await callServe(server, session, `/v1/reviews/${reviewId}`);
      expect(server.output()).toContain(`its review (files and diff): /reviews/${reviewId}`);
      expect(review).toMatchObject({ branch: 'phase-1-strategic', status: 'open', phase: 1 });
      const { files } = await callServe(server, session, `/v1/reviews/${reviewId}/files`);
      expect(files).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'PLAN.md', status: 'added' }),
          expect.objectContaining({ path: 'README.md', status: 'modified' }),
        ]),
      );
      // Main already holds the sample project: the review shows the plan, not the project's import.
      expect(files.map((file: Json) => file.path)).not.toContain('package.json');
      const { diff } = await callServe(server, session, `/v1/reviews/${reviewId}/diff?path=PLAN.md`);
      const planLines = diff.hunks.flatMap((hunk: Json) => hunk.lines.map((line: Json) => line.text));
      expect(planLines).toEqual(expect.arrayContaining(['## Design', '## Tasks']));
      await approve(phase1);

      // Phase 2: every step the agent asks for, approved, up to the final review.
      for (const type of ['tool_call', 'tool_call', 'tool_call', 'tool_call', 'confidence_threshold'])
        await approve(await pending(type));
      const final = await pending('phase_review');
      const { gate: finalGate } = await callServe(server, session, `/v1/gates/${final.id as string}`);
      expect(finalGate.context).toMatchObject({ branch: 'phase-2-tactical', jobComplete: true });
      const finalId = finalGate.context.reviewId as string;
      const finalFiles = (await callServe(server, session, `/v1/reviews/${finalId}/files`)).files as Json[];
      expect(finalFiles.map((file) => file.path)).toEqual(
        expect.arrayContaining(['src/slugify.js', 'test/slugify.test.js', 'build/bundle.js']),
      );
      await approve(final);

      const merged = (await callServe(server, session, `/v1/reviews/${finalId}`)).review as Json;
      expect(merged).toMatchObject({
        status: 'merged',
        mergeCommit: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
      const { gitUrl } = await callServe(server, session, `/v1/runs/${merged.runId as string}/workspace`);
      await git(session, temp.dir, 'clone', '--quiet', gitUrl, 'repo');
      const repo = join(temp.dir, 'repo');
      // main: the sample project, one squash commit per phase, no merge commits.
      expect((await git(session, repo, 'log', '--format=%H %s', 'main')).split('\n')).toEqual([
        `${merged.mergeCommit as string} Phase 2 (tactical): slugify and its test`,
        expect.stringMatching(/ Phase 1 \(strategic\): the plan for readable post URLs$/),
        expect.stringMatching(/ Workspace of run_/),
      ]);
      expect(await git(session, repo, 'rev-list', '--min-parents=2', '--count', 'main')).toBe('0');
      const message = await git(session, repo, 'show', '-s', '--format=%B', 'main');
      expect(message).toContain(`Gatehouse-Review: ${finalId}`);
      expect(message).toContain('Co-authored-by: demo-agent');
      expect(await git(session, repo, 'show', 'main:src/slugify.js')).toContain('export function slugify');
      expect(await git(session, repo, 'show', 'main:PLAN.md')).toContain('## Tasks');
      expect(await git(session, repo, 'ls-tree', '--name-only', 'main', 'build')).toBe('');
      // The agent pushes once its plan is approved: a run waiting on Gate 0 may not act, not even to have a push analysed.
      const { items: events } = await callServe(server, session, '/v1/audit?limit=500');
      const seqOf = (kind: string, subject: string) =>
        (events as Json[]).find((event) => event.kind === kind && event.subject === subject)?.seq as number;
      const pushes = (events as Json[]).filter((event) => event.kind === 'workspace.pushed');
      expect(pushes.length).toBeGreaterThanOrEqual(2);
      expect(Math.min(...pushes.map((event) => event.seq as number))).toBeGreaterThan(
        seqOf('gate.decided', intent.id),
      );
      const completed = new RegExp(`run ${merged.runId as string} completed`);
      for (let i = 0; i < 100 && !completed.test(server.output()); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.output()).toMatch(completed);
    }, 180_000);
  },
);
