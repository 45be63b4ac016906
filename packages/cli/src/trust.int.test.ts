import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './testing/cli-server.js';

// Two approvals by one person on the same day earn a proposal here, so the test needs no clock.
const POLICY = `name: trust-cli
defaultAction: gate
rules: []
trust:
  minApprovals: 2
  minPeople: 1
  minDays: 0
  autonomyMinApprovals: 2
  autonomyMinPeople: 1
  autonomyMinDays: 0
`;

describe('gatehouse trust against a running server', () => {
  const cli = useCliServer();
  const { gatehouse } = cli;

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
    return { outcome: body.outcome, gateId: body.gate?.id ?? null };
  }

  async function approve(command: string): Promise<void> {
    const { gateId } = await bash(command);
    const decided = await gatehouse(['gates', 'decide', gateId as string, '--option', 'approve']);
    expect(decided.stderr).toBe('');
  }

  it('lists a proposal with its evidence, accepts it narrowed, lists the rule and revokes it', async () => {
    const file = join(cli.temp.dir, 'trust-policy.yaml');
    writeFileSync(file, POLICY);
    expect((await gatehouse(['policy', 'apply', file])).code).toBe(0);
    expect((await gatehouse(['trust', 'proposals'])).stdout).toContain('no proposals');
    await approve('cargo test');
    await approve('cargo test');

    const listed = await gatehouse(['trust', 'proposals']);
    expect(listed.stdout).toMatch(/^ID\s+AGENT\s+COVERS\s+STATUS\s+EVIDENCE$/m);
    expect(listed.stdout).toMatch(
      /tp_\S+\s+agent_\S+\s+bash\(cargo test:\*\)\s+proposed\s+2 approvals by 1 people/,
    );
    const json = JSON.parse((await gatehouse(['trust', 'proposals', '--json'])).stdout) as {
      proposals: { id: string; replay: { wouldAllow: number } }[];
    };
    const [proposal] = json.proposals;
    expect(proposal?.replay.wouldAllow).toBe(2);

    const wider = await gatehouse(['trust', 'accept', proposal?.id as string, '--prefix', 'cargo']);
    expect(wider.code).toBe(1);
    expect(wider.stderr).toMatch(/error VALIDATION_FAILED: scope/);
    const both = await gatehouse([
      'trust',
      'accept',
      proposal?.id as string,
      '--prefix',
      'a',
      '--command',
      'b',
    ]);
    expect(both.code).toBe(2);

    const accepted = await gatehouse(['trust', 'accept', proposal?.id as string, '--command', 'cargo test']);
    expect(accepted.stderr).toBe('');
    const [, ruleId] =
      /accepted as (rule_\S+): bash\(cargo test\) for agent_\S+ until \d{4}-/.exec(accepted.stdout) ?? [];
    expect(ruleId, accepted.stdout).toBeDefined();
    expect((await bash('cargo test')).outcome).toBe('allowed');
    expect((await bash('cargo test --release')).outcome).toBe('gated');

    const rules = await gatehouse(['trust', 'rules']);
    expect(rules.stdout).toMatch(
      new RegExp(`^${ruleId}\\s+agent_\\S+\\s+bash\\(cargo test\\)\\s+active`, 'm'),
    );
    const revoked = await gatehouse([
      'trust',
      'revoke',
      ruleId as string,
      '--harmful',
      '--reason',
      'wiped target/',
    ]);
    expect(revoked.stderr).toBe('');
    expect(revoked.stdout).toContain(`${ruleId}: revoked`);
    expect((await bash('cargo test')).outcome).toBe('gated');
    const ended = JSON.parse((await gatehouse(['trust', 'rules', '--all', '--json'])).stdout) as {
      rules: { state: string; revokedReason: string }[];
    };
    expect(ended.rules).toMatchObject([
      { state: 'revoked', revokedReason: 'reported harmful: wiped target/' },
    ]);
    expect((await gatehouse(['trust', 'rules'])).stdout).toContain('no learned rules in force');
  }, 120_000);

  /** A run of the agent ends its first phase; the signed-in admin approves the plan and the phase review. */
  async function approvePhase(): Promise<void> {
    const { run } = await cli.asAgent<{ run: { id: string } }>('POST', '/v1/runs', { title: 'a phase' });
    const intent = await cli.asAgent<{ gateId: string }>('POST', '/v1/gates', {
      runId: run.id,
      event: 'planning_complete',
      operation: 'implement the plan',
    });
    expect((await gatehouse(['gates', 'decide', intent.gateId, '--option', 'approve'])).stderr).toBe('');
    const checkpoint = await cli.asAgent<{ gate: { id: string; type: string } }>(
      'POST',
      `/v1/runs/${run.id}/checkpoint`,
      { phase: 1, type: 'strategic', jobComplete: false },
    );
    expect(checkpoint.gate.type).toBe('phase_review');
    expect((await gatehouse(['gates', 'decide', checkpoint.gate.id, '--option', 'approve'])).stderr).toBe('');
  }

  it('lists an autonomy proposal with its phase-review evidence and accepts it', async () => {
    await approvePhase();
    await approvePhase();
    const listed = await gatehouse(['trust', 'proposals']);
    expect(listed.stdout).toMatch(
      /tp_\S+\s+agent_\S+\s+agent agent_\S+ autonomy: partial → review\s+proposed\s+2 phase reviews approved by 1 people over 0 days/,
    );
    const json = JSON.parse((await gatehouse(['trust', 'proposals', '--json'])).stdout) as {
      proposals: { id: string; kind: string }[];
    };
    const proposal = json.proposals.find((p) => p.kind === 'autonomy');
    const accepted = await gatehouse(['trust', 'accept', proposal?.id as string]);
    expect(accepted.stderr).toBe('');
    expect(accepted.stdout).toMatch(/accepted: agent agent_\S+ autonomy: partial → review/);
  }, 120_000);

  it('dismisses a proposal and refuses a bad status with a usage error', async () => {
    await approve('make lint');
    await approve('make lint');
    const json = JSON.parse((await gatehouse(['trust', 'proposals', '--json'])).stdout) as {
      proposals: { id: string; description: string }[];
    };
    const proposal = json.proposals.find((p) => p.description === 'bash(make lint:*)');
    expect(proposal).toBeDefined();
    const dismissed = await gatehouse([
      'trust',
      'dismiss',
      proposal?.id as string,
      '--reason',
      'lint is cheap',
    ]);
    expect(dismissed.stdout).toContain('dismissed');
    const bad = await gatehouse(['trust', 'proposals', '--status', 'maybe', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe('USAGE_ERROR');
    const missing = await gatehouse(['trust', 'accept', 'tp_missing', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('NOT_FOUND');
  }, 120_000);
});
