import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
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
import { callApi } from './testing/cli-server.js';

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

type GateView = {
  gate: { status: string; decision: { editedArgs?: unknown; answer?: string; payloadHash?: string } | null };
};

describe('gatehouse inbox: edit, then approve, and answering questions', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;
  let agentToken: string;
  let adminToken: string;

  const call = <T>(token: string, method: string, path: string, body?: unknown): Promise<T> =>
    callApi<T>({ url: server.url, token }, method, path, body);

  const ask = async (body: Record<string, unknown>) =>
    (await call<{ gate: { id: string } }>(agentToken, 'POST', '/v1/gates', body)).gate.id;
  const gateOf = async (id: string) => (await call<GateView>(adminToken, 'GET', `/v1/gates/${id}`)).gate;

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    server = await startServe(join(temp.dir, 'data'));
    expect((await runGatehouse(['login', '--link', server.loginLink as string], { env })).code).toBe(0);
    const credentials = readFileSync(join(temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8');
    adminToken = (JSON.parse(credentials) as { token: string }).token;
    const agent = await runGatehouse(['agents', 'create', 'edit-bot', '--json'], { env });
    agentToken = (JSON.parse(agent.stdout) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  it('opens $EDITOR on the arguments, shows the change, and approves the edited action after y', async () => {
    const gateId = await ask({ tool: 'shell', args: { command: 'make deploy ENV=prod' } });
    // The "editor" is a script: it edits the JSON file it is given, as a person would.
    const inbox = startInboxOnTty({ ...env, EDITOR: 'sed -i s/ENV=prod/ENV=staging/' });
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${gateId}`));
      let from = inbox.mark();
      inbox.press('?');
      await inbox.waitFor(/e {2}Edit the arguments in \$EDITOR, then approve/, from);
      inbox.press(' ');
      from = inbox.mark();
      inbox.press('e');
      await inbox.waitFor(/- command: "make deploy ENV=prod"\s+\+ command: "make deploy ENV=staging"/, from);
      await inbox.waitFor(/Press y to approve the edited action/, from);
      inbox.press('y');
      await inbox.waitFor(new RegExp(`${gateId}: approved`), from);
      expect(await gateOf(gateId)).toMatchObject({
        status: 'approved',
        decision: { editedArgs: { command: 'make deploy ENV=staging' } },
      });
      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);

  it('sends nothing when the edit is not JSON or is not confirmed', async () => {
    const gateId = await ask({ tool: 'shell', args: { command: 'make clean' } });
    const inbox = startInboxOnTty({ ...env, EDITOR: 'sed -i s/{/oops/' });
    try {
      await inbox.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${gateId}`));
      const from = inbox.mark();
      inbox.press('e');
      await inbox.waitFor(/editedArgs: not valid JSON/, from);
      expect((await gateOf(gateId)).status).toBe('pending');
      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
    const declined = startInboxOnTty({ ...env, EDITOR: 'sed -i s/clean/distclean/' });
    try {
      await declined.waitFor(new RegExp(`gate 1 of 1 · live[\\s\\S]*${gateId}`));
      const from = declined.mark();
      declined.press('e');
      await declined.waitFor(/Press y to approve the edited action/, from);
      declined.press('n');
      await declined.waitFor(/cancelled; nothing was sent/, from);
      expect((await gateOf(gateId)).status).toBe('pending');
      await call(adminToken, 'POST', `/v1/gates/${gateId}/decide`, { option: 'reject', reason: 'done' });
      declined.press('q');
      expect(await declined.exited).toBe(0);
    } finally {
      declined.child.kill('SIGKILL');
    }
  }, 60_000);

  it('answers a question gate with typed text', async () => {
    const gateId = await ask({
      operation: 'question',
      gateType: 'question',
      event: 'question',
      title: 'Which region should the bucket live in?',
    });
    const inbox = startInboxOnTty(env);
    try {
      await inbox.waitFor(/gate 1 of 1 · live[\s\S]*Which region/);
      const from = inbox.mark();
      inbox.press('1');
      await inbox.waitFor(/Answer for the agent: $/, from);
      inbox.press('eu-west-1\r');
      await inbox.waitFor(new RegExp(`${gateId}: resolved \\(answer`), from);
      expect((await gateOf(gateId)).decision?.answer).toBe('eu-west-1');
      inbox.press('q');
      expect(await inbox.exited).toBe(0);
    } finally {
      inbox.child.kill('SIGKILL');
    }
  }, 60_000);
});
