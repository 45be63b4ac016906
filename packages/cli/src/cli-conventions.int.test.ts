import { describe, expect, it } from 'vitest';
import { runGatehouse } from './testing/cli-process.js';
import { useCliServer } from './testing/cli-server.js';

interface GateBody {
  id: string;
}

describe('gatehouse conventions against a running server', () => {
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

  describe('an agent token in the environment', () => {
    it('says which credential was refused and how to use the login instead', async () => {
      const result = await runGatehouse(['users', 'list'], {
        env: { ...cli.env, GATEHOUSE_URL: cli.server.url, GATEHOUSE_TOKEN: cli.agentToken },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error FORBIDDEN: /);
      expect(result.stderr).toContain('GATEHOUSE_TOKEN');
      expect(result.stderr).toContain('agent build-bot');
      expect(result.stderr).toContain('unset GATEHOUSE_TOKEN');
      expect(result.stderr).toContain('your login');
    });

    it('says the same in the JSON error with --json', async () => {
      const result = await runGatehouse(['users', 'list', '--json'], {
        env: { ...cli.env, GATEHOUSE_URL: cli.server.url, GATEHOUSE_TOKEN: cli.agentToken },
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const { error } = JSON.parse(result.stderr) as { error: { code: string; hint: string } };
      expect(error.code).toBe('FORBIDDEN');
      expect(error.hint).toContain('unset GATEHOUSE_TOKEN');
    });
  });

  describe('--json errors', () => {
    it('prints a server refusal on stderr as the wire error, nothing on stdout', async () => {
      const result = await gatehouse(['gates', 'show', 'gate_doesnotexist', '--json']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const body = JSON.parse(result.stderr) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('NOT_FOUND');
      expect(body.error.message).not.toBe('');
    });
  });

  describe('names in tables', () => {
    it('shows the agent by name in gates list and runs list', async () => {
      const id = await openGate('rm -rf names');
      await asAgent('POST', '/v1/runs', { title: 'a named run' });
      const gates = await gatehouse(['gates', 'list', '--status', 'pending']);
      const gateRow = gates.stdout.split('\n').find((line) => line.startsWith(id));
      expect(gateRow).toMatch(/\sbuild-bot\s/);
      const runs = await gatehouse(['runs', 'list']);
      const runRow = runs.stdout.split('\n').find((line) => line.endsWith('a named run'));
      expect(runRow).toMatch(/\sbuild-bot\s/);
    });

    it('names the agent in runs show', async () => {
      const created = await asAgent<{ run: { id: string } }>('POST', '/v1/runs', { title: 'shown run' });
      const shown = await gatehouse(['runs', 'show', created.run.id]);
      expect(shown.stdout).toMatch(/^Agent:\s+build-bot \(agent_\S+\)$/m);
    });

    it('takes an agent name for --agent', async () => {
      const id = await openGate('rm -rf by-name');
      const gates = await gatehouse(['gates', 'list', '--agent', 'build-bot', '--status', 'pending']);
      expect(gates.stderr).toBe('');
      expect(gates.stdout).toContain(id);
    });
  });
});
