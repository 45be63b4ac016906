import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_MAIN,
  cleanEnv,
  runGatehouse,
  type ServeProcess,
  startServe,
  tempDir,
} from './testing/cli-process.js';

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** `gatehouse inbox` on a real pseudo-terminal (util-linux `script`), driven by key presses. */
function startInboxOnTty(env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(
    'script',
    ['-qfec', `${process.execPath} ${CLI_MAIN} inbox`, '/dev/null'],
    { env: cleanEnv(env) },
  );
  let raw = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    /** The screen output since `from`, without escape sequences. */
    text: (from = 0) => raw.slice(from).replace(ANSI, ''),
    mark: () => raw.length,
    press: (keys: string) => child.stdin.write(keys),
    async waitFor(pattern: RegExp, from = 0, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(raw.slice(from).replace(ANSI, ''))) {
        if (Date.now() > deadline)
          throw new Error(`no ${pattern} on the screen:\n${raw.slice(from).replace(ANSI, '')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

describe('gatehouse inbox on a terminal', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;
  let agentToken: string;
  let adminToken: string;

  async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async function openGate(command: string): Promise<string> {
    return ask({ tool: 'shell', args: { command } });
  }

  async function ask(body: Record<string, unknown>): Promise<string> {
    const result = await call<{ gate: { id: string } }>(agentToken, 'POST', '/v1/gates', body);
    return result.gate.id;
  }

  const gateStatus = async (id: string) =>
    (
      await call<{ gate: { status: string; decision: { instructions?: string } | null } }>(
        adminToken,
        'GET',
        `/v1/gates/${id}`,
      )
    ).gate;

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    server = await startServe(join(temp.dir, 'data'));
    expect((await runGatehouse(['login', '--link', server.loginLink as string], { env })).code).toBe(0);
    adminToken = (
      JSON.parse(readFileSync(join(temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8')) as {
        token: string;
      }
    ).token;
    const agent = await runGatehouse(['agents', 'create', 'tty-bot', '--json'], { env });
    agentToken = (JSON.parse(agent.stdout) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  it('answers with single keys, prompts for steer instructions, and follows gates live', async () => {
    const first = await openGate('rm -rf build');
    const inbox = startInboxOnTty(env);
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${first}`));

      const second = await openGate('rm -rf dist');
      await inbox.waitFor(/gate 1 of 2/, inbox.mark());

      let from = inbox.mark();
      inbox.press('a');
      // A high-risk gate: the key asks first.
      await inbox.waitFor(/\(high risk\)\? Press y to approve/, from);
      inbox.press('y');
      await inbox.waitFor(new RegExp(`${first}: approved`), from);
      expect((await gateStatus(first)).status).toBe('approved');
      await inbox.waitFor(new RegExp(`gate 1 of 1[\\s\\S]*${second}`), from);

      from = inbox.mark();
      await call(adminToken, 'POST', `/v1/gates/${second}/decide`, { option: 'reject', reason: 'not now' });
      await inbox.waitFor(/no pending gates/, from);

      const third = await openGate('rm -rf src');
      await inbox.waitFor(new RegExp(`gate 1 of 1[\\s\\S]*${third}`), from);
      from = inbox.mark();
      inbox.press('s');
      await inbox.waitFor(/Instructions for the agent: $/, from);
      inbox.press('\r');
      await inbox.waitFor(/this cannot be empty/, from);
      inbox.press('delete only src/generated\r');
      await inbox.waitFor(/Affected artifacts, comma-separated \(optional\): $/, from);
      inbox.press('src/generated\r');
      await inbox.waitFor(new RegExp(`${third}: steered`), from);
      const steered = await gateStatus(third);
      expect(steered.status).toBe('steered');
      expect(steered.decision?.instructions).toBe('delete only src/generated');

      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);

  it('asks for a reason on r, reads what is typed then as the reason, and confirms before sending', async () => {
    const risky = await ask({ tool: 'shell', args: { command: 'rm -rf build/cache' }, risk: 'high' });
    const inbox = startInboxOnTty(env);
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${risky}`));
      const next = await ask({ tool: 'shell', args: { command: 'ls -la /srv/app' }, risk: 'low' });
      await inbox.waitFor(/gate 1 of 2/, inbox.mark());

      let from = inbox.mark();
      inbox.press('r');
      await inbox.waitFor(/Reason \(optional\): $/, from);
      // Every key is the reason now, none a command: `a` approves nothing, `n` moves nowhere.
      inbox.press('a nested cache, see the log');
      await inbox.waitFor(/a nested cache, see the log$/, from);
      expect((await gateStatus(next)).status).toBe('pending');
      inbox.press('\r');
      await inbox.waitFor(/Reject .*“a nested cache, see the log”[\s\S]*Press y to send/, from);
      expect((await gateStatus(risky)).status).toBe('pending');
      // A key typed while the decision is on its way is dropped, not read as the next command.
      inbox.press('ya');
      await inbox.waitFor(new RegExp(`${risky}: rejected`), from);
      const rejected = await gateStatus(risky);
      expect(rejected).toMatchObject({
        status: 'rejected',
        decision: { reason: 'a nested cache, see the log' },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await gateStatus(next)).status).toBe('pending');

      from = inbox.mark();
      inbox.press('r');
      await inbox.waitFor(/Reason \(optional\): $/, from);
      inbox.press('\x1b');
      await inbox.waitFor(/cancelled; nothing was sent/, from);
      expect((await gateStatus(next)).status).toBe('pending');

      // Low risk: one key approves.
      from = inbox.mark();
      inbox.press('a');
      await inbox.waitFor(new RegExp(`${next}: approved`), from);

      const critical = await ask({
        tool: 'shell',
        args: { command: 'git push --force origin main' },
        risk: 'critical',
      });
      await inbox.waitFor(new RegExp(`gate 1 of 1[\\s\\S]*${critical}`), from);
      from = inbox.mark();
      inbox.press('a');
      await inbox.waitFor(/Approve .*critical risk[\s\S]*Press y to approve/, from);
      inbox.press('n');
      await inbox.waitFor(/cancelled; nothing was sent/, from);
      expect((await gateStatus(critical)).status).toBe('pending');
      from = inbox.mark();
      inbox.press('a');
      await inbox.waitFor(/Press y to approve/, from);
      inbox.press('y');
      await inbox.waitFor(new RegExp(`${critical}: approved`), from);

      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);

  it('says when the run of a gate is paused, and that an approval waits for the resume', async () => {
    const { run } = await call<{ run: { id: string } }>(agentToken, 'POST', '/v1/runs', { title: 'held' });
    const plan = await ask({ runId: run.id, event: 'planning_complete', operation: 'implement the plan' });
    await call(adminToken, 'POST', `/v1/gates/${plan}/decide`, { option: 'approve' });
    const held = await ask({
      runId: run.id,
      tool: 'shell',
      args: { command: 'ls -la /srv/held' },
      risk: 'low',
    });
    await call(adminToken, 'POST', `/v1/runs/${run.id}/interventions`, { kind: 'pause' });
    const inbox = startInboxOnTty(env);
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${held}`));
      await inbox.waitFor(/Run paused: the agent goes ahead only when the run is resumed/);
      const from = inbox.mark();
      inbox.press('a');
      await inbox.waitFor(new RegExp(`${held}: approved .*; the run is paused`), from);
      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);

  it('lists the keys on ?, offers no Always where it is refused, and confirms ending the task', async () => {
    const wipe = await openGate('rm -rf /srv/data');
    const inbox = startInboxOnTty(env);
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${wipe}`));
      expect(inbox.text()).not.toMatch(/\[w\] Always/);

      let from = inbox.mark();
      inbox.press('?');
      await inbox.waitFor(/a {2}Approve[\s\S]*r {2}Reject[\s\S]*s {2}Steer[\s\S]*\? {2}These keys/, from);
      expect(inbox.text(from)).not.toMatch(/w {2}Always/);
      inbox.press(' ');

      from = inbox.mark();
      inbox.press('w');
      await inbox.waitFor(/no option on the key w/, from);
      expect((await gateStatus(wipe)).status).toBe('pending');
      inbox.press('r');
      await inbox.waitFor(/Reason \(optional\): $/, from);
      inbox.press('\r');
      await inbox.waitFor(/without a reason\? Press y to send/, from);
      inbox.press('y');
      await inbox.waitFor(new RegExp(`${wipe}: rejected`), from);

      const stuck = await ask({ operation: 'finish the migration', gateType: 'constraint_exception' });
      await inbox.waitFor(new RegExp(`gate 1 of 1[\\s\\S]*${stuck}`), from);
      from = inbox.mark();
      inbox.press('3');
      await inbox.waitFor(/Abort ends the agent's task\. Press y to confirm/, from);
      inbox.press('n');
      await inbox.waitFor(/cancelled; nothing was sent/, from);
      expect((await gateStatus(stuck)).status).toBe('pending');

      from = inbox.mark();
      inbox.press('3');
      await inbox.waitFor(/Press y to confirm/, from);
      inbox.press('y');
      await inbox.waitFor(new RegExp(`${stuck}: resolved \\(abort`), from);
      expect((await gateStatus(stuck)).status).toBe('resolved');

      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);
});
