import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, startServe, tempDir } from './testing/cli-process.js';
import { callServe, signInByLoginLink } from './testing/serve-session.js';

type Json = Record<string, unknown>;

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
  }, 30_000);

  // Between its two gates the agent clones its repository and pushes its plan: more than the default time on a busy machine.
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

    const session = await signInByLoginLink(server);
    const pending = (type: string) =>
      until(`a pending ${type} gate from the demo agent`, async () => {
        const { items } = (await callServe(server, session, `/v1/gates?status=pending&type=${type}`)) as {
          items: Json[];
        };
        return items[0];
      });
    // Gate 0: the demo agent's plan is approved before it implements anything.
    const intent = await pending('intent_approval');
    const agents = (await callServe(server, session, '/v1/agents')) as { agents: Json[] };
    expect(agents.agents.find((agent) => agent.id === intent.agentId)?.name).toBe('demo-agent');
    await callServe(server, session, `/v1/gates/${intent.id as string}/decide`, { option: 'approve' });
    const gate = await pending('phase_review');
    expect(gate.agentId).toBe(intent.agentId);
    expect(gate.type).toBe('phase_review');

    await callServe(server, session, `/v1/gates/${gate.id as string}/decide`, { option: 'approve' });
    await until('the demo agent going on', async () =>
      /\[3\] plan[\s\S]*-> approved by user_\w+[\s\S]*\[4\]/.test(server.output()) ? true : undefined,
    );
    expect(await server.stop()).toBe(0);
    expect(server.output()).toContain('Gatehouse is shutting down');
  }, 60_000);

  it('runs a person’s edited arguments when they edit & approve its write_file', async () => {
    const temp = tempDir();
    cleanup.push(temp.remove);
    const server = await startServe(join(temp.dir, 'data'), { args: ['--demo'] });
    cleanup.push(() => server.stop());
    const session = await signInByLoginLink(server);
    const pending = (type: string, skip: readonly unknown[] = []) =>
      until(
        `a pending ${type} gate from the demo agent`,
        async () => {
          const { items } = (await callServe(server, session, `/v1/gates?status=pending&type=${type}`)) as {
            items: Json[];
          };
          const stopped = /the demo agent stopped: .*/.exec(server.output());
          if (stopped) throw new Error(stopped[0]);
          return items.find((item) => !skip.includes(item.id));
        },
        30_000,
      );
    for (const type of ['intent_approval', 'phase_review']) {
      const gate = await pending(type);
      await callServe(server, session, `/v1/gates/${gate.id as string}/decide`, { option: 'approve' });
    }
    const write = await pending('tool_call');
    const action = write.action as { tool: string; args: { path: string; content: string } };
    expect(action.tool).toBe('write_file');
    const edited = `${action.args.content}// reviewed by a person\n`;
    await callServe(server, session, `/v1/gates/${write.id as string}/decide`, {
      option: 'approve',
      editedArgs: { path: action.args.path, content: edited },
    });

    // The agent goes on to its next step and its workspace holds the edited file.
    await pending('tool_call', [write.id]);
    const dir = /started \(autonomy [^)]*\) in (\S+)/.exec(server.output())?.[1] ?? '';
    expect(await readFile(join(dir, action.args.path), 'utf8')).toBe(edited);
    expect(server.output()).not.toContain('the demo agent stopped');
  }, 90_000);

  it('documents --demo in its help', async () => {
    const help = await runGatehouse(['serve', '--help']);
    expect(help.stdout).toMatch(/--demo\s+Also run a scripted coding agent/);
  });
});
