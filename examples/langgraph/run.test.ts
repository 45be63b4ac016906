import { describe, expect, it } from 'vitest';
import { useExampleServer } from '../shared/testing/example-server.js';

const example = useExampleServer(new URL('./run.mjs', import.meta.url));

describe('the LangGraph.js example', () => {
  it('interrupts on the delete gate, resumes with the approval, and the act node deletes', async () => {
    const finished = example.start('--path', 'dist/');
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'dist/' } });
    await example.server.decide(gate.id, { option: 'approve' });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`delete_file: waiting for a person on gate ${gate.id}`);
    expect(stdout).toContain(`delete_file: approved by ${example.server.reviewer.id}`);
    expect(stdout).toContain('inspect: read_file README.md approved by policy');
    expect(stdout).toContain('act: deleted dist/');
    expect(stdout).toMatch(/run run_\S+ completed/);
  });

  it('deletes the path the person edited, not the one the graph asked for', async () => {
    const finished = example.start();
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    await example.server.decide(gate.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('delete_file: runs with the edited arguments {"path":"build/cache/"}');
    expect(stdout).toContain('act: deleted build/cache/');
    expect(stdout).not.toContain('act: deleted build/\n');
  });

  it('resumes with a steer and the act node leaves the folder alone', async () => {
    const finished = example.start();
    await example.server.decide((await example.server.pendingGate()).id, {
      option: 'steer',
      instructions: 'only clean build/tmp',
    });
    const { code, stdout } = await finished;

    expect(code).toBe(0);
    expect(stdout).toContain(
      `act: left build/ alone (delete_file: steered by ${example.server.reviewer.id} (only clean build/tmp))`,
    );
    expect(stdout).not.toContain('act: deleted');
  });
});
