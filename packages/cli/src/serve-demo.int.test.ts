import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, type ServeProcess, startServe, tempDir } from './testing/cli-process.js';

type Json = Record<string, unknown>;

async function call(server: ServeProcess, token: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as Json;
}

/** Signs in with the first-start login link, as a person who opened it would. */
async function signIn(server: ServeProcess): Promise<string> {
  const token = /#token=(\S+)/.exec(server.loginLink ?? '')?.[1];
  const response = await fetch(`${server.url}/v1/auth/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('gatehouse serve --demo', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('runs the demo agent: its gate is pending within seconds and it goes on when a person decides', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await startServe(join(temp.dir, 'data'), { args: ['--demo'] });
    cleanup.push(() => server.stop());
    const announced = 'A demo agent is sending requests: open the link to answer its gates';
    const output = await until('the demo announcement', async () =>
      server.output().includes(announced) ? server.output() : undefined,
    );
    expect(output.indexOf(announced)).toBeGreaterThan(output.indexOf('/login#token='));

    const session = await signIn(server);
    const pending = (type: string) =>
      until(`a pending ${type} gate from the demo agent`, async () => {
        const { items } = (await call(server, session, `/v1/gates?status=pending&type=${type}`)) as {
          items: Json[];
        };
        return items[0];
      });
    // Gate 0: the demo agent's plan is approved before it implements anything.
    const intent = await pending('intent_approval');
    const agents = (await call(server, session, '/v1/agents')) as { agents: Json[] };
    expect(agents.agents.find((agent) => agent.id === intent.agentId)?.name).toBe('demo-agent');
    await call(server, session, `/v1/gates/${intent.id as string}/decide`, { option: 'approve' });
    const gate = await pending('phase_review');
    expect(gate.agentId).toBe(intent.agentId);
    expect(gate.type).toBe('phase_review');

    await call(server, session, `/v1/gates/${gate.id as string}/decide`, { option: 'approve' });
    await until('the demo agent going on', async () =>
      /\[3\] plan[\s\S]*-> approved by user_\w+[\s\S]*\[4\]/.test(server.output()) ? true : undefined,
    );
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Gatehouse is shutting down');
  });

  it('documents --demo in its help', async () => {
    const help = await runGatehouse(['serve', '--help']);
    expect(help.stdout).toMatch(/--demo\s+Also run a scripted coding agent/);
  });
});
