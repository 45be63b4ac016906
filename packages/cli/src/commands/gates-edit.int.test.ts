import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from '../testing/cli-server.js';

interface GateBody {
  id: string;
  status: string;
  decision: { option: string; editedArgs?: Record<string, unknown> } | null;
}

describe('gatehouse gates decide --edit against a running server', () => {
  const cli = useCliServer();
  const { gatehouse, asAgent } = cli;

  async function openGate(command: string): Promise<string> {
    const result = await asAgent<{ outcome: string; gate: GateBody }>('POST', '/v1/gates', {
      tool: 'shell',
      args: { command },
      title: `run ${command}`,
    });
    expect(result.outcome).toBe('gated');
    return result.gate.id;
  }

  async function gateOf(id: string): Promise<GateBody> {
    const shown = await gatehouse(['gates', 'show', id, '--json']);
    return (JSON.parse(shown.stdout) as { gate: GateBody }).gate;
  }

  it('approves with the edited arguments given as JSON', async () => {
    const id = await openGate('rm -rf build');
    const result = await gatehouse(['gates', 'decide', id, '--edit', '{"command":"rm -rf build/cache"}']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${id}: approved (approve by `);
    const gate = await gateOf(id);
    expect(gate.decision?.editedArgs).toEqual({ command: 'rm -rf build/cache' });
  });

  it('reads the edited arguments from --edit-file', async () => {
    const id = await openGate('rm -rf dist');
    const file = join(cli.temp.dir, 'edited-args.json');
    writeFileSync(file, '{ "command": "rm -rf dist/tmp" }\n');
    const result = await gatehouse(['gates', 'decide', id, '--edit-file', file, '--reason', 'narrower']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await gateOf(id)).decision?.editedArgs).toEqual({ command: 'rm -rf dist/tmp' });
  });

  it.each([
    [['--edit', '{command: rm}'], '--edit is not valid JSON'],
    [['--edit', '["rm"]'], '--edit must be a JSON object of the arguments'],
    [['--edit', '{}', '--option', 'reject'], '--edit approves with edits; leave out --option reject'],
    [['--edit', '{}', '--edit-file', 'args.json'], 'give --edit or --edit-file, not both'],
    [['--edit-file', '/nonexistent/args.json'], 'cannot read --edit-file /nonexistent/args.json'],
  ])('refuses %j naming the flag, and sends nothing', async (flags, message) => {
    const id = await openGate('rm -rf out');
    const result = await gatehouse(['gates', 'decide', id, ...flags]);
    expect(result.stderr).toContain(message);
    expect(result.code).not.toBe(0);
    expect((await gateOf(id)).status).toBe('pending');
  });
});
