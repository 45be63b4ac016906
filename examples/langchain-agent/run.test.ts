import { describe, expect, it } from 'vitest';
import { useExampleServer } from '../shared/testing/example-server.js';

const example = useExampleServer(new URL('./run.mjs', import.meta.url));

/** Whether the gate's one-off approval was used, and how many gates its run opened. */
async function gateFacts(gate: { id: string; runId: string | null }) {
  if (gate.runId === null) throw new Error(`gate ${gate.id} belongs to no run`);
  const decided = await example.server.gate(gate.id);
  const all = await example.server.gatesOfRun(gate.runId);
  return { consumed: decided.consumedAt !== null, gatesInRun: all.length };
}

describe('the LangChain createAgent example', () => {
  it('answers the read from the policy and runs the delete with the path the person edited', async () => {
    const finished = example.start();
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    await example.server.decide(gate.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('read_file: approved by policy');
    expect(stdout).toContain(`delete_file: waiting for a person on gate ${gate.id}`);
    expect(stdout.match(/waiting for a person/g)).toHaveLength(1);
    expect(stdout).toContain(`delete_file: approved by ${example.server.reviewer.id}`);
    expect(stdout).toContain('delete_file: runs with the edited arguments {"path":"build/cache/"}');
    expect(stdout).toContain(
      'model: Done. read_file → # README.md (example contents); delete_file → deleted build/cache/',
    );
    expect(stdout).toMatch(/run run_\S+ completed/);
    expect(await gateFacts(gate)).toEqual({ consumed: true, gatesInRun: 1 });
  });

  it('approves as proposed: the tool runs with the model’s arguments', async () => {
    const finished = example.start('--path', 'dist/');
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'dist/' } });
    await example.server.decide(gate.id, { option: 'approve' });
    const { code, stdout } = await finished;

    expect(code).toBe(0);
    expect(stdout).toContain('delete_file → deleted dist/');
    expect(stdout).not.toContain('edited arguments');
  });

  it('rejects with the reviewer’s reason, which the model reads, and runs nothing', async () => {
    const finished = example.start();
    await example.server.decide((await example.server.pendingGate()).id, {
      option: 'reject',
      reason: 'keep the build',
    });
    const { code, stdout } = await finished;

    expect(code).toBe(0);
    expect(stdout).toContain(`delete_file: denied by ${example.server.reviewer.id} (keep the build)`);
    expect(stdout).toContain('delete_file → Gatehouse denied the call to delete_file');
    expect(stdout).toContain('keep the build');
    expect(stdout).not.toContain('deleted build/');
  });

  it('asks for a token', async () => {
    const { code, stderr } = await example.startWithoutToken();
    expect(code).toBe(2);
    expect(stderr).toContain('an agent token is required');
  });
});
