import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from './default-policy.js';
import { evaluatePolicy, evaluatePolicyNaive } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import type { PolicyRequest } from './policy-schema.js';

const compiled = compilePolicy(DEFAULT_POLICY);

function claudeCall(tool: string, args: Record<string, unknown>): PolicyRequest {
  return { event: 'tool_call', tool, args, agent: { id: 'agent-1' } };
}

describe('DEFAULT_POLICY on Claude Code tool names', () => {
  it.each([
    ['Read', { file_path: '/repo/src/app.ts' }, 'allow', 'core-file-reads'],
    ['Grep', { pattern: 'TODO', path: '/repo' }, 'allow', 'core-file-reads'],
    ['Glob', { pattern: '**/*.ts' }, 'allow', 'core-file-reads'],
    ['LS', { path: '/repo' }, 'allow', 'core-file-reads'],
    ['NotebookRead', { notebook_path: '/repo/a.ipynb' }, 'allow', 'claude-code-read-only'],
    ['TodoWrite', { todos: [] }, 'allow', 'claude-code-read-only'],
    ['WebFetch', { url: 'https://example.com', prompt: 'sum' }, 'allow', 'core-external-api-calls'],
    ['WebSearch', { query: 'vitest' }, 'allow', 'core-external-api-calls'],
    ['Task', { description: 'x', prompt: 'y' }, 'allow', 'core-agent-spawning'],
    [
      'Edit',
      { file_path: '/repo/src/a.ts', old_string: 'a', new_string: 'b' },
      'gate',
      'claude-code-file-edits',
    ],
    ['Write', { file_path: '/repo/src/a.ts', content: 'x' }, 'gate', 'claude-code-file-edits'],
    ['MultiEdit', { file_path: '/repo/src/a.ts', edits: [] }, 'gate', 'claude-code-file-edits'],
    ['NotebookEdit', { notebook_path: '/repo/a.ipynb', new_source: 'x' }, 'gate', 'claude-code-file-edits'],
    ['Bash', { command: 'npm test' }, 'gate', 'core-shell-execution'],
    ['mcp__github__create_issue', { title: 'x' }, 'gate', 'claude-code-mcp-tools'],
  ])('%s → %s by %s', (tool, args, action, ruleId) => {
    const request = claudeCall(tool, args);
    expect(evaluatePolicy(compiled, request)).toMatchObject({ action, ruleId });
    expect(evaluatePolicyNaive(compiled, request)).toMatchObject({ action, ruleId });
  });

  it.each([
    ['Edit', { file_path: '/repo/.env', old_string: 'A=1', new_string: 'A=2' }, 'always-gate-secret-files'],
    ['Write', { file_path: '/repo/config/production.yaml', content: 'x' }, 'always-gate-production-config'],
    ['NotebookEdit', { notebook_path: '/repo/secrets.json', new_source: 'x' }, 'always-gate-secret-files'],
    ['Bash', { command: 'rm -rf /repo/src' }, 'always-gate-delete-files'],
  ])('%s on a path the path rules cover waits at high risk', (tool, args, ruleId) => {
    const decision = evaluatePolicy(compiled, claudeCall(tool, args));
    expect(decision).toMatchObject({ action: 'gate', ruleId, gate: { risk: 'high' } });
  });

  it('does not take a tool that only contains mcp__ for an MCP tool', () => {
    const decision = evaluatePolicy(compiled, claudeCall('my_mcp__tool', {}));
    expect(decision.ruleId).not.toBe('claude-code-mcp-tools');
  });
});
