// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests spell the configuration's ${VAR} placeholders
import { describe, expect, it } from 'vitest';
import { expandEnv, GatewayConfigError, parseGatewayConfig } from './config.js';

const env = { HOME: '/home/ada', API_KEY: 'k-123' };

describe('parseGatewayConfig', () => {
  it('reads the Claude Desktop / Cursor shape (command, args, env) and Claude Code’s typed HTTP entries', () => {
    const text = JSON.stringify({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', 'server-filesystem', '${HOME}/notes'],
          env: { DEBUG: '${DEBUG:-false}' },
        },
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-API-Key': '${API_KEY}' } },
        cursorRemote: { url: 'https://other.example.com/mcp' },
        off: { command: 'never', disabled: true },
      },
    });
    expect(parseGatewayConfig(text, env)).toEqual([
      {
        kind: 'stdio',
        name: 'files',
        command: 'npx',
        args: ['-y', 'server-filesystem', '/home/ada/notes'],
        env: { DEBUG: 'false' },
        cwd: null,
      },
      { kind: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: { 'X-API-Key': 'k-123' } },
      { kind: 'http', name: 'cursorRemote', url: 'https://other.example.com/mcp', headers: {} },
    ]);
  });

  it.each([
    ['not json', 'the configuration is not JSON'],
    ['{"servers":{}}', 'needs an "mcpServers" object'],
    ['{"mcpServers":{}}', 'lists no enabled server'],
    ['{"mcpServers":{"a__b":{"command":"x"}}}', 'mcpServers.a__b: a server name'],
    ['{"mcpServers":{"a_":{"command":"x"}}}', 'not ending in "_"'],
    ['{"mcpServers":{"a":{"args":[]}}}', 'mcpServers.a: give "command" (stdio) or "url" (HTTP)'],
    ['{"mcpServers":{"a":{"command":""}}}', 'mcpServers.a.command: command must not be empty'],
    [
      '{"mcpServers":{"a":{"type":"sse","url":"https://x.example/sse"}}}',
      'mcpServers.a.type: "sse" is not supported',
    ],
    ['{"mcpServers":{"a":{"url":"ftp://x.example"}}}', 'mcpServers.a.url: must be an http(s) URL'],
    [
      '{"mcpServers":{"a":{"command":"x","env":{"T":"${MISSING}"}}}}',
      'mcpServers.a.env.T: environment variable MISSING is not set',
    ],
  ])('refuses %s, naming the place: %s', (text, message) => {
    expect(() => parseGatewayConfig(text, env)).toThrow(GatewayConfigError);
    expect(() => parseGatewayConfig(text, env)).toThrow(message);
  });
});

describe('expandEnv', () => {
  it('uses the default only when the variable is unset or empty', () => {
    expect(expandEnv('${A:-x}/${B:-y}', { A: 'a', B: '' }, 'here')).toBe('a/y');
    expect(expandEnv('no placeholders $A', {}, 'here')).toBe('no placeholders $A');
  });
});
