import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  runGatehouse,
  type ServeProcess,
  startServe,
  tempDir,
} from './testing/cli-process.js';

const RLO = '\u202e';
const HIDDEN = /[\u202e\u200b]|[\u{e0000}-\u{e007f}]/u;

describe('gatehouse shows hidden characters from agents as markers', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;
  let gateId: string;

  const gatehouse = (args: string[]): Promise<CliResult> => runGatehouse(args, { env });

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config'), COLUMNS: '100' };
    server = await startServe(join(temp.dir, 'data'));
    expect((await gatehouse(['login', '--link', server.loginLink as string])).code).toBe(0);
    const agent = await gatehouse(['agents', 'create', 'mail-bot', '--json']);
    const { token } = JSON.parse(agent.stdout) as { token: string };
    const response = await fetch(`${server.url}/v1/gates`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        tool: `invoice_${RLO}fdp.sh`,
        args: { command: `echo safe${RLO} && rm -rf ~`, tag: 'ok\u{e0041}\u{e0042}' },
      }),
    });
    const answer = (await response.json()) as { outcome: string; gate: { id: string; risk: string } };
    expect(answer).toMatchObject({ outcome: 'gated', gate: { risk: 'high' } });
    gateId = answer.gate.id;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  function expectRevealed(stdout: string): void {
    expect(stdout).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(stdout).toContain('echo safe⟨U+202E⟩ && rm -rf ~');
    expect(stdout).toContain('ok⟨U+E0041⟩⟨U+E0042⟩');
    expect(stdout).toContain('This action contains hidden characters');
    expect(stdout).not.toMatch(HIDDEN);
  }

  it('in the gate view of `gates show`', async () => {
    const result = await gatehouse(['gates', 'show', gateId]);
    expect(result.code).toBe(0);
    expectRevealed(result.stdout);
  });

  it('in the inbox, and in the list of gates', async () => {
    const inbox = await gatehouse(['inbox']);
    expect(inbox.code).toBe(0);
    expectRevealed(inbox.stdout);
    const list = await gatehouse(['gates', 'list', '--status', 'pending']);
    expect(list.stdout).toContain('invoice_⟨U+202E⟩fdp.sh');
    expect(list.stdout).not.toMatch(HIDDEN);
  });
});
