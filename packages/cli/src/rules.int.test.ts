import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './testing/cli-in-process.js';
import { useCliServer } from './testing/cli-server.js';

interface Rule {
  id: string;
  scope: string;
  match: unknown;
  description: string;
  expiresAt: number | null;
  revokedAt: number | null;
}

describe('gatehouse gates decide --always and gatehouse rules against a running server', () => {
  const cli = useCliServer();
  const { gatehouse } = cli;

  /** The agent asks to run `command` with bash, outside any run; returns the outcome and the gate's id. */
  async function bash(command: string): Promise<{ outcome: string; gateId: string | null }> {
    const response = await fetch(`${cli.server.url}/v1/gates`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${cli.agentToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ tool: 'bash', args: { command } }),
    });
    const body = (await response.json()) as { outcome: string; gate: { id: string } | null };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return { outcome: body.outcome, gateId: body.gate?.id ?? null };
  }

  async function gated(command: string): Promise<string> {
    const { outcome, gateId } = await bash(command);
    expect(outcome).toBe('gated');
    return gateId as string;
  }

  it('remembers the prefix a person names for the agent, lists it, and revokes it', async () => {
    const gateId = await gated('npm test');
    const decided = await gatehouse([
      'gates',
      'decide',
      gateId,
      '--always',
      '--match-prefix',
      'npm test',
      '--remember',
      'agent',
      '--expires',
      '7d',
    ]);
    expect(decided.stderr).toBe('');
    expect(decided.code).toBe(0);
    const [, ruleId] = /^remembered (rule_\S+): bash\(npm test:\*\) in agent agent_\S+, until \d{4}-/m.exec(
      decided.stdout,
    ) ?? [undefined, undefined];
    expect(ruleId, decided.stdout).toBeDefined();
    expect(decided.stdout).toMatch(new RegExp(`^${gateId}: approved \\(approve_always by `));

    expect((await bash('npm test -- --watch')).outcome).toBe('allowed');
    expect((await bash('npm install left-pad')).outcome).toBe('gated');

    const listed = await gatehouse(['rules', 'list']);
    expect(listed.stdout).toMatch(/^ID\s+COVERS\s+WHERE\s+EXPIRES\s+STATUS\s+CREATED BY$/m);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${ruleId}\\s+bash\\(npm test:\\*\\)\\s+agent agent_\\S+\\s+\\d{4}-\\S+\\s+active\\s+user:`,
        'm',
      ),
    );
    const json = JSON.parse((await gatehouse(['rules', 'list', '--json'])).stdout) as { rules: Rule[] };
    const rule = json.rules.find((candidate) => candidate.id === ruleId);
    expect(rule).toMatchObject({ scope: 'agent', match: { kind: 'prefix', prefix: 'npm test' } });
    expect((rule?.expiresAt ?? 0) - Date.now()).toBeGreaterThan(6 * 86_400_000);

    const revoked = await gatehouse(['rules', 'revoke', ruleId as string]);
    expect(revoked.stderr).toBe('');
    expect(revoked.stdout).toBe(`${ruleId}: revoked; later bash(npm test:*) calls wait for a person again\n`);
    expect((await bash('npm test')).outcome).toBe('gated');
    expect((await gatehouse(['rules', 'list', '--all'])).stdout).toMatch(
      new RegExp(`^${ruleId}\\s.*\\srevoked\\s`, 'm'),
    );
  }, 90_000);

  it('remembers the suggested scope when no --match-* option is given', async () => {
    const gateId = await gated('make build');
    const shown = await gatehouse(['gates', 'show', gateId]);
    expect(shown.stdout).toMatch(/^Always: {2}bash\(make build:\*\) \(suggested\), bash\(make build\)$/m);
    const decided = await gatehouse(['gates', 'decide', gateId, '--always', '--remember', 'agent', '--json']);
    expect(decided.code).toBe(0);
    const { rule } = JSON.parse(decided.stdout) as { rule: Rule };
    expect(rule).toMatchObject({ match: { kind: 'prefix', prefix: 'make build' }, expiresAt: null });
    await gatehouse(['rules', 'revoke', rule.id]);
  }, 60_000);

  it('passes on the server refusing a scope that does not fit the call, naming remember.match', async () => {
    const gateId = await gated('python -m pytest');
    const refused = await gatehouse([
      'gates',
      'decide',
      gateId,
      '--always',
      '--match-prefix',
      'python',
      '--remember',
      'agent',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error VALIDATION_FAILED: remember\.match: python runs whatever/);
  }, 60_000);

  it.each([
    [['--always', '--match-prefix', 'npm test', '--match-path', 'src/**'], /--match-prefix or --match-path/],
    [
      ['--option', 'approve', '--match-prefix', 'npm test'],
      /--match-prefix is for "approve always"; add --always/,
    ],
    [['--always', '--option', 'reject'], /leave out --option reject/],
    [['--always', '--expires', '7w'], /--expires must be a duration such as 90m, 12h or 7d/],
    [['--always', '--expires', '31d'], /--expires must be a duration/],
    [['--always', '--expires', '1d', '--remember-ttl', '3600'], /--expires or --remember-ttl, not both/],
  ])('refuses %j before asking the server', async (args, message) => {
    const result = await runCliInProcess(['gates', 'decide', 'gate_unused', ...args], { env: cli.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
