import { canonicalJson } from 'gatehouse-hitl-protocol/rules';
import { describe, expect, it } from 'vitest';
import { DEFAULT_URL } from '../credentials.js';
import { parseHookInput } from './claude-code.js';
import {
  DEFAULT_BUDGET_MS,
  HOOK_DEFAULT_URL,
  HookSettingsError,
  hookSettings,
  parseHookArgs,
} from './claude-code-settings.js';
import { fingerprint } from './ledger.js';

describe('hook settings', () => {
  it('uses the same default server as the rest of the command line', () => {
    expect(HOOK_DEFAULT_URL).toBe(DEFAULT_URL);
  });

  it('takes options over the environment over the defaults', () => {
    const env = {
      HOME: '/home/dev',
      GATEHOUSE_URL: 'http://gatehouse.internal:7300/',
      GATEHOUSE_TOKEN: 'gha_env',
      GATEHOUSE_RUN_ID: 'run_env',
    };
    expect(hookSettings({}, env)).toEqual({
      url: 'http://gatehouse.internal:7300',
      token: 'gha_env',
      runId: 'run_env',
      budgetMs: DEFAULT_BUDGET_MS,
      stateDir: '/home/dev/.local/state/gatehouse/claude-code',
    });
    const values = {
      url: 'https://gh.example.com/base',
      token: 'gha_flag',
      'run-id': 'run_flag',
      'budget-ms': '4000',
    };
    expect(hookSettings(values, { ...env, XDG_STATE_HOME: '/state' })).toMatchObject({
      url: 'https://gh.example.com/base',
      token: 'gha_flag',
      runId: 'run_flag',
      budgetMs: 4000,
      stateDir: '/state/gatehouse/claude-code',
    });
    expect(hookSettings({}, {}).token).toBeNull();
  });

  it.each([
    [{ 'budget-ms': '100' }, '--budget-ms must be a whole number from 500 to 600000 (got "100")'],
    [{ 'run-id': 'gate_1' }, 'the run id must look like run_… (got "gate_1")'],
    [{ url: 'ftp://x' }, '"ftp://x" is not an http(s) URL'],
  ])('refuses %j as wrong usage', (values, message) => {
    expect(() => hookSettings(values, {})).toThrow(HookSettingsError);
    expect(() => hookSettings(values, {})).toThrow(message);
  });

  it('reads --name value and --name=value, and leaves anything else to the full command line', () => {
    expect(parseHookArgs(['--budget-ms', '3000', '--url=http://127.0.0.1:1'])).toEqual({
      'budget-ms': '3000',
      url: 'http://127.0.0.1:1',
    });
    expect(parseHookArgs([])).toEqual({});
    expect(parseHookArgs(['--verbose'])).toBeNull();
    expect(parseHookArgs(['--token'])).toBeNull();
    expect(parseHookArgs(['stray'])).toBeNull();
  });
});

describe('parseHookInput', () => {
  it('reads the PreToolUse fields Claude Code sends', () => {
    const text = JSON.stringify({
      session_id: 'abc123',
      transcript_path: '/home/dev/.claude/projects/x/abc123.jsonl',
      cwd: '/home/dev/shop',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/home/dev/shop/a.ts', content: 'x' },
      tool_use_id: 'toolu_01ABC',
    });
    expect(parseHookInput(text)).toEqual({
      kind: 'pre_tool_use',
      input: {
        sessionId: 'abc123',
        cwd: '/home/dev/shop',
        toolName: 'Write',
        toolInput: { file_path: '/home/dev/shop/a.ts', content: 'x' },
        toolUseId: 'toolu_01ABC',
      },
    });
  });

  it.each([
    ['{"hook_event_name":"Stop","stop_hook_active":false}', { kind: 'other', event: 'Stop' }],
    ['nope', { kind: 'invalid', reason: 'the hook input on stdin is not JSON' }],
    ['[]', { kind: 'invalid', reason: 'the hook input on stdin is not a JSON object' }],
    ['{"tool_name":"Read"}', { kind: 'invalid', reason: 'the hook input has no hook_event_name' }],
    [
      '{"hook_event_name":"PreToolUse"}',
      { kind: 'invalid', reason: 'the PreToolUse input has no tool_name' },
    ],
  ])('tells %s apart', (text, expected) => {
    expect(parseHookInput(text)).toEqual(expected);
  });
});

describe('call identity', () => {
  it('does not depend on key order', () => {
    const a = canonicalJson({ tool: 'Bash', args: { command: 'ls', description: 'list' } });
    const b = canonicalJson({ args: { description: 'list', command: 'ls' }, tool: 'Bash' });
    expect(a).toBe(b);
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint(canonicalJson({ tool: 'Bash', args: { command: 'ls -a' } }))).not.toBe(fingerprint(a));
  });
});
