import { describe, expect, it } from 'vitest';
import { driveClaudeCode } from './claude-code-driver.js';

describe('the Claude Code hook driver', () => {
  it('reads the exit code of a command hook that exits without reading its input', async () => {
    // More than a pipe holds, so writing it fails once the hook has gone.
    const input = { tool_name: 'Bash', tool_input: { command: 'x'.repeat(1 << 20) } };
    const settings = {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo gone >&2; exit 2' }] }] },
    };
    const [result] = await driveClaudeCode(settings, input, { PATH: process.env.PATH });
    expect(result).toEqual({ outcome: 'blocked', transport: 'command', detail: 'gone\n' });
  });

  it('lets a command hook that outlives its timeout through, unless it says onFailure block', async () => {
    const hook = { type: 'command', command: 'exec sleep 5', timeout: 0.2 };
    const input = { tool_name: 'Bash', tool_input: { command: 'ls' } };
    const settings = (extra: object) => ({ hooks: { PreToolUse: [{ hooks: [{ ...hook, ...extra }] }] } });
    const env = { PATH: process.env.PATH };
    expect((await driveClaudeCode(settings({}), input, env))[0]?.outcome).toBe('proceeds');
    expect((await driveClaudeCode(settings({ onFailure: 'block' }), input, env))[0]?.outcome).toBe('blocked');
  });
});
