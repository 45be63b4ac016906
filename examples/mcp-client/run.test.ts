import { describe, expect, it } from 'vitest';
import { useExampleServer } from '../shared/testing/example-server.js';

const example = useExampleServer(new URL('./run.mjs', import.meta.url));

describe('the MCP client example', () => {
  it('lists the tools, reads at once, waits for the rm -rf approval', async () => {
    const finished = example.start();
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'shell_execute', args: { command: 'rm -rf build/' } });
    await example.server.decide(gate.id, { option: 'approve' });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/tools: .*gatehouse_request_approval.*gatehouse_wait_for_decision/);
    expect(stdout).toContain('read_file README.md: approved by policy');
    expect(stdout).toContain(`shell_execute rm -rf build/: waiting for a person on gate ${gate.id}`);
    expect(stdout).toContain(`shell_execute rm -rf build/: approved by ${example.server.reviewer.id}`);
    expect(stdout).toContain('would now run: rm -rf build/');
  });

  it('prints the rejection and does not run the command', async () => {
    const finished = example.start();
    await example.server.decide((await example.server.pendingGate()).id, {
      option: 'reject',
      reason: 'keep the build',
    });
    const { code, stdout } = await finished;

    expect(code).toBe(0);
    expect(stdout).toContain(
      `shell_execute rm -rf build/: denied by ${example.server.reviewer.id} (keep the build)`,
    );
    expect(stdout).toContain('not running: rm -rf build/');
  });

  it('asks for a token', async () => {
    const { code, stderr } = await example.startWithoutToken();
    expect(code).toBe(2);
    expect(stderr).toContain('an agent token is required');
  });
});
