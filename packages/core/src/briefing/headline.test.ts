import { describe, expect, it } from 'vitest';
import { agentTitleBeside } from './headline.js';

const gate = (title: string, action: { tool?: string; operation?: string } | null = { tool: 'bash' }) => ({
  title,
  type: 'tool_call',
  action: action === null ? null : { ...action, args: {} },
});

describe('agentTitleBeside', () => {
  it('keeps a title the agent wrote that says more than the headline', () => {
    expect(agentTitleBeside(gate('plan'), 'coder-1 wants to run bash: make plan')).toBe('plan');
    expect(agentTitleBeside(gate(' Clean the build '), 'coder-1 wants to run bash')).toBe('Clean the build');
  });

  it.each([
    ['the headline itself', 'Coder-1 wants to run bash', { tool: 'bash' }],
    ['the gate type', 'tool call', { tool: 'bash' }],
    ["the gate type's default title", 'Tool call approval', { tool: 'bash' }],
    ['the tool', 'bash', { tool: 'bash' }],
    ['the tool and its arguments, as the server names an untitled gate', 'bash command=ls', { tool: 'bash' }],
    ['the operation', 'deploy web', { operation: 'deploy web' }],
    ['nothing', '  ', null],
    [
      'a tool name with hidden characters',
      'invoice_⟨U+202E⟩fdp.sh command=ls',
      { tool: 'invoice_\u202efdp.sh' },
    ],
  ])('leaves out a title that only repeats %s', (_what, title, action) => {
    expect(agentTitleBeside(gate(title, action), 'coder-1 wants to run bash')).toBeNull();
  });
});
