import { describe, expect, it } from 'vitest';
import { describeDeleteApprovalExample } from '../shared/testing/delete-approval-example.js';
import { useExampleServer } from '../shared/testing/example-server.js';

const script = new URL('./run.mjs', import.meta.url);

describeDeleteApprovalExample(
  'OpenAI Agents SDK 0.20',
  script,
  /model: Done\. read_file → # README\.md.*; delete_file → deleted build\//,
);

describe('the OpenAI Agents SDK 0.20 example with an edited approval', () => {
  const example = useExampleServer(script);

  it('runs the delete with the path the person approved, on the one gate', async () => {
    const finished = example.start();
    const gate = await example.server.pendingGate();
    expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
    await example.server.decide(gate.id, { option: 'approve', editedArgs: { path: 'build/cache/' } });
    const { code, stdout, stderr } = await finished;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('delete_file: runs with the edited arguments {"path":"build/cache/"}');
    expect(stdout).toMatch(/model: Done\. read_file → # README\.md.*; delete_file → deleted build\/cache\//);
    expect(stdout).not.toContain('deleted build/;');
    // The SDK asks needsApproval again on resume; the decided call opens no second gate.
    expect(stdout.match(/waiting for a person/g)).toHaveLength(1);
    expect(await example.server.gatesOfRun(gate.runId ?? 'no run')).toHaveLength(1);
    expect((await example.server.gate(gate.id)).consumedAt).not.toBeNull();
  });
});
