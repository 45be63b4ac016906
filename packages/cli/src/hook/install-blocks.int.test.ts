import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGatehouse, tempDir } from '../testing/cli-process.js';
import { driveClaudeCode } from './claude-code-driver.js';

const LAUNCHER = fileURLToPath(new URL('../../bin/gatehouse.cjs', import.meta.url));
const TOKEN = 'gha_not_checked_while_the_server_is_down';

function bashCall() {
  return {
    session_id: 'sess-down',
    transcript_path: '/tmp/sess-down.jsonl',
    cwd: '/home/dev/shop',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf build' },
    tool_use_id: 'toolu_down',
  };
}

/** A URL nothing listens on. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function script(dir: string, name: string, body: string): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

describe('the configuration `gatehouse hook install claude-code` writes', () => {
  let root: { dir: string; remove(): void };
  let down: string;
  /** PATH with a `gatehouse` that runs this checkout's CLI. */
  let withGatehouse: string;
  /** PATH with a Claude Code that blocks on hook failure. */
  let withNewClaude: string;
  let installs = 0;

  beforeAll(async () => {
    root = tempDir('gatehouse-install-blocks-');
    down = await closedUrl();
    const gatehouseBin = join(root.dir, 'gatehouse-bin');
    const claudeBin = join(root.dir, 'claude-bin');
    mkdirSync(gatehouseBin);
    mkdirSync(claudeBin);
    script(gatehouseBin, 'gatehouse', `exec "${process.execPath}" "${LAUNCHER}" "$@"`);
    script(claudeBin, 'claude', 'echo "2.1.300 (Claude Code)"');
    withGatehouse = `${gatehouseBin}:${process.env.PATH}`;
    withNewClaude = `${claudeBin}:${withGatehouse}`;
  });
  afterAll(() => root?.remove());

  async function install(args: string[], env: Record<string, string>) {
    installs += 1;
    const settingsPath = join(root.dir, `settings-${installs}.json`);
    const result = await runGatehouse(
      ['hook', 'install', 'claude-code', '--settings', settingsPath, ...args],
      {
        env,
      },
    );
    expect(result.code).toBe(0);
    return { settings: JSON.parse(readFileSync(settingsPath, 'utf8')), stderr: result.stderr };
  }

  function drive(settings: Record<string, unknown>, env: Record<string, string>) {
    return driveClaudeCode(settings, bashCall(), {
      HOME: root.dir,
      XDG_STATE_HOME: root.dir,
      GATEHOUSE_TOKEN: TOKEN,
      ...env,
    });
  }

  it('command hook: blocks with exit 2 and says why when gatehouse is not on PATH', async () => {
    const { settings } = await install(['--transport', 'command'], { PATH: process.env.PATH ?? '' });
    const [result] = await drive(settings, { PATH: '/usr/bin:/bin', GATEHOUSE_URL: down });
    expect(result).toMatchObject({ transport: 'command', outcome: 'blocked' });
    expect(result?.detail).toContain('gatehouse is not on PATH');
  });

  it('command hook: also says onFailure block to a Claude Code that knows it, so a hook Claude Code gives up on blocks', async () => {
    const { settings } = await install(['--transport', 'command'], { PATH: `${withNewClaude}` });
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', onFailure: 'block' });
    const older = await install(['--transport', 'command'], { PATH: withGatehouse });
    expect(older.settings.hooks.PreToolUse[0].hooks[0]).not.toHaveProperty('onFailure');
  });

  it('command hook: denies when the server is down', async () => {
    const { settings } = await install(['--transport', 'command'], { PATH: withGatehouse });
    const [result] = await drive(settings, { PATH: withGatehouse, GATEHOUSE_URL: down });
    expect(result).toMatchObject({ transport: 'command', outcome: 'deny' });
  });

  it('command hook: blocks when gatehouse fails in a way of its own (exit 1 becomes 2)', async () => {
    const broken = join(root.dir, 'broken-bin');
    mkdirSync(broken);
    script(broken, 'gatehouse', 'echo "node: not found" >&2; exit 127');
    const { settings } = await install(['--transport', 'command'], { PATH: withGatehouse });
    const [result] = await drive(settings, { PATH: `${broken}:/usr/bin:/bin`, GATEHOUSE_URL: down });
    expect(result?.outcome).toBe('blocked');
  });

  it('http hook: chosen for a known server and a Claude Code that blocks on failure, and it blocks when the server is down', async () => {
    const { settings } = await install([], { PATH: withNewClaude, GATEHOUSE_URL: down });
    const hook = settings.hooks.PreToolUse[0].hooks[0];
    expect(hook).toMatchObject({
      type: 'http',
      url: `${down}/v1/hooks/claude-code/pre-tool-use?mode=wait&waitMs=25000`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder Claude Code fills in
      headers: { Authorization: 'Bearer ${GATEHOUSE_TOKEN}' },
      allowedEnvVars: ['GATEHOUSE_TOKEN', 'GATEHOUSE_RUN_ID'],
      timeout: 30,
      onFailure: 'block',
    });
    expect(JSON.stringify(settings)).not.toContain(TOKEN);
    const [result] = await drive(settings, { PATH: withGatehouse });
    expect(result).toMatchObject({ transport: 'http', outcome: 'blocked' });
  });

  it('falls back to the command hook when Claude Code is not known to block on http failure', async () => {
    const { settings, stderr } = await install([], { PATH: withGatehouse, GATEHOUSE_URL: down });
    expect(settings.hooks.PreToolUse[0].hooks[0].type).toBe('command');
    expect(stderr).toContain('wrote the command hook, not the http hook');
    const [result] = await drive(settings, { PATH: withGatehouse, GATEHOUSE_URL: down });
    expect(result?.outcome).toBe('deny');
  });

  it('warns that an http hook without onFailure lets calls through while the server is down', async () => {
    const { settings, stderr } = await install(
      ['--transport', 'http', '--url', down, '--on-failure', 'none'],
      {
        PATH: withGatehouse,
      },
    );
    expect(stderr).toContain('Claude Code runs tool calls while the Gatehouse server is down');
    const [result] = await drive(settings, { PATH: withGatehouse });
    expect(result).toMatchObject({ transport: 'http', outcome: 'proceeds' });
  });

  describe('with the server up', () => {
    let test: TestApp<{ now(): number }>;
    let url: string;
    beforeAll(async () => {
      test = await createTestApp({ dialect: 'sqlite' });
      url = await test.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await test?.close();
    });

    it('http hook in ask mode: Claude Code asks while the gate stays open, and a Read is allowed', async () => {
      const { settings } = await install(
        ['--transport', 'http', '--url', url, '--mode', 'ask', '--on-failure', 'block'],
        {
          PATH: withGatehouse,
        },
      );
      expect(settings.hooks.PermissionRequest[0].hooks[0].url).toBe(
        `${url}/v1/hooks/claude-code/permission-request?mode=ask`,
      );
      const env = { PATH: withGatehouse, HOME: root.dir, GATEHOUSE_TOKEN: test.tokens.agent };
      const [bash] = await driveClaudeCode(settings, bashCall(), env);
      expect(bash).toMatchObject({ transport: 'http', outcome: 'ask' });
      const read = { ...bashCall(), tool_name: 'Read', tool_input: { file_path: '/home/dev/shop/a.ts' } };
      const [allowed] = await driveClaudeCode(settings, read, env);
      expect(allowed?.outcome).toBe('allow');
      const [stranger] = await driveClaudeCode(settings, read, { ...env, GATEHOUSE_TOKEN: 'gha_wrong' });
      expect(stranger?.outcome).toBe('deny');
    });
  });
});
