import { describe, expect, it } from 'vitest';
import { useExampleServer } from './example-server.js';

/**
 * The contract every framework example that reads a file and deletes `build/` behind a gate keeps:
 * the read runs at once, the delete waits for a person, a rejection reaches the model.
 * `finalAnswer` matches the model's closing line, which each framework prints in its own way.
 */
export function describeDeleteApprovalExample(name: string, script: URL, finalAnswer: RegExp): void {
  const example = useExampleServer(script);

  describe(`the ${name} example`, () => {
    it('reads at once, waits for the delete approval, then runs it', async () => {
      const finished = example.start();
      const gate = await example.server.pendingGate();
      expect(gate.action).toMatchObject({ tool: 'delete_file', args: { path: 'build/' } });
      await example.server.decide(gate.id, { option: 'approve' });
      const { code, stdout, stderr } = await finished;

      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`delete_file: waiting for a person on gate ${gate.id}`);
      expect(stdout.match(/waiting for a person/g)).toHaveLength(1);
      expect(stdout).toContain(`delete_file: approved by ${example.server.reviewer.id}`);
      expect(stdout).toMatch(finalAnswer);
      expect(stdout).toMatch(/run run_\S+ completed/);
    });

    it('tells the model why the delete was rejected and does not run it', async () => {
      const finished = example.start();
      await example.server.decide((await example.server.pendingGate()).id, {
        option: 'reject',
        reason: 'keep the build',
      });
      const { code, stdout } = await finished;

      expect(code).toBe(0);
      expect(stdout).toContain(`delete_file: denied by ${example.server.reviewer.id} (keep the build)`);
      expect(stdout).toContain('delete_file → Gatehouse denied the call to delete_file');
      expect(stdout).not.toContain('deleted build/');
    });

    it('asks for a token', async () => {
      const { code, stderr } = await example.startWithoutToken();
      expect(code).toBe(2);
      expect(stderr).toContain('an agent token is required');
    });
  });
}
