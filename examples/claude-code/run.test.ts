import { describe, expect, it } from 'vitest';
import { useExampleServer } from '../shared/testing/example-server.js';

const example = useExampleServer(new URL('./run.mjs', import.meta.url));

/** The gate the first Bash call opened, once that call has answered "pending" (its budget is 1 s). */
async function gateAfterPendingAnswer() {
  const gate = await example.server.pendingGate();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return gate;
}

describe('the Claude Code hook example', () => {
  it('allows the Read, denies the rm -rf as pending, then the retry gets the approval', async () => {
    const finished = example.start();
    const gate = await gateAfterPendingAnswer();
    expect(gate.action).toMatchObject({ tool: 'Bash', args: { command: 'rm -rf build/' } });
    await example.server.decide(gate.id, { option: 'approve', reason: 'build output only' });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /Read README\.md → \{"hookSpecificOutput":\{"hookEventName":"PreToolUse","permissionDecision":"allow"/,
    );
    expect(stdout).toContain('Read README.md: allow');
    expect(stdout).toMatch(
      new RegExp(
        `Bash rm -rf build/ → .*"permissionDecision":"deny".*Approval is pending \\(gate ${gate.id}`,
      ),
    );
    expect(stdout).toContain(`Bash rm -rf build/: waiting for a person on gate ${gate.id}`);
    expect(stdout).toMatch(/Bash rm -rf build\/ \(retry\) → .*"permissionDecision":"allow"/);
    expect(stdout).toContain(
      `Bash rm -rf build/: allow (Gatehouse: Bash approved by ${example.server.reviewer.id} (gate ${gate.id}): build output only`,
    );
  });

  it('passes a rejection on to Claude Code as a deny with the reason', async () => {
    const finished = example.start();
    const gate = await gateAfterPendingAnswer();
    await example.server.decide(gate.id, { option: 'reject', reason: 'keep the build' });
    const { code, stdout } = await finished;

    expect(code).toBe(0);
    expect(stdout).toMatch(/Bash rm -rf build\/: deny \(.*keep the build/);
  });

  it('asks for a token', async () => {
    const { code, stderr } = await example.startWithoutToken();
    expect(code).toBe(2);
    expect(stderr).toContain('an agent token is required');
  });
});
