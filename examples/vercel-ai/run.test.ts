import { describe, expect, it } from 'vitest';
import { describeDeleteApprovalExample } from '../shared/testing/delete-approval-example.js';
import { useExampleServer } from '../shared/testing/example-server.js';

const script = new URL('./run.mjs', import.meta.url);

describeDeleteApprovalExample(
  'Vercel AI SDK 7',
  script,
  /model: Done\. read_file → "# README\.md.*"; delete_file → "deleted build\/"/,
);

describe('the Vercel AI SDK 7 example with an edited approval', () => {
  const example = useExampleServer(script);

  it('runs the delete with the path the person approved, not the one the model asked for', async () => {
    const finished = example.start();
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    await example.server.decide(gate.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`delete_file: the AI SDK asks for approval (Gatehouse gate ${gate.id})`);
    expect(stdout).toContain('delete_file: runs with the edited arguments {"path":"build/cache/"}');
    expect(stdout).toMatch(/delete_file → "deleted build\/cache\/"/);
    expect(stdout).not.toMatch(/"deleted build\/"/);
    expect((await example.server.gate(gate.id)).consumedAt).not.toBeNull();
  });
});
