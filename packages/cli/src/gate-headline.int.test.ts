import { approvalBinding, type Gate } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './testing/cli-server.js';

describe('the terminal names a gate as its page does, and shows what an approval binds to', () => {
  const { gatehouse, asAgent } = useCliServer();

  async function openGate(args: Record<string, unknown>, title: string): Promise<Gate> {
    const result = await asAgent<{ outcome: string; gate: Gate }>('POST', '/v1/gates', {
      tool: 'shell',
      args,
      title,
    });
    expect(result.outcome).toBe('gated');
    return result.gate;
  }

  it('leads with the headline in the inbox, `gates list` and `gates show`, the agent’s title beside it', async () => {
    const gate = await openGate({ command: 'make plan' }, 'plan');
    const headline = 'build-bot wants to run shell: make plan';

    const inbox = await gatehouse(['inbox']);
    expect(inbox.code).toBe(0);
    expect(inbox.stdout).toContain(`│ ${headline} `);
    expect(inbox.stdout).toContain("│ Agent's title: plan ");

    const list = await gatehouse(['gates', 'list', '--status', 'pending']);
    expect(list.stdout).toMatch(/^ID\s+TYPE\s+RISK\s+STATUS\s+AGENT\s+DEADLINE\s+HEADLINE\n/);
    const row = list.stdout.split('\n').find((line) => line.startsWith(gate.id));
    expect(row).toMatch(new RegExp(`${headline}$`));

    const show = await gatehouse(['gates', 'show', gate.id]);
    expect(show.stdout).toContain(`│ ${headline} `);
  });

  it('shows a different binding for two gates with the same empty arguments', async () => {
    const first = await openGate({}, 'Empty one');
    const second = await openGate({}, 'Empty two');
    expect(first.payloadHash).toBe(second.payloadHash);
    const bindingShown = async (gate: Gate) => {
      const show = await gatehouse(['gates', 'show', gate.id]);
      expect(show.stdout).toContain('Approval binds to this gate and this exact action:');
      return /SHA-256 ([0-9a-f]{16})…/.exec(show.stdout)?.[1];
    };
    const one = await bindingShown(first);
    expect(one).toBe(approvalBinding(first)?.slice(0, 16));
    expect(await bindingShown(second)).toBe(approvalBinding(second)?.slice(0, 16));
    expect(one).not.toBe(await bindingShown(second));
    const inbox = await gatehouse(['inbox']);
    expect(inbox.stdout).toContain(`SHA-256 ${one}…`);
  });
});
