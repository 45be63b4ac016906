import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGatehouse, tempDir } from '../testing/cli-process.js';
import { isGatehouseHook, isGatehouseHttpHook, mergeHookEntry } from './install.js';
import { guardedCommand, httpHandler } from './install-transport.js';

/** A settings file a team already has: its own hooks, permissions and other settings. */
const EXISTING = {
  permissions: { allow: ['Bash(npm run test:*)'], deny: ['Read(./.env)'] },
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh', timeout: 10 },
        ],
      },
    ],
    PostToolUse: [
      { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx biome format --write "$FILE"' }] },
    ],
  },
  model: 'sonnet',
};

const COMMAND = { type: 'command', command: 'gatehouse hook claude-code', timeout: 30 } as const;
const SPEC = { handler: COMMAND, matcher: '*' };
const GUARDED = guardedCommand(25_000, 25_000);

describe('mergeHookEntry', () => {
  it('adds one matcher group and leaves every other hook and setting as it was', () => {
    const settings = structuredClone(EXISTING) as Record<string, unknown>;
    const result = mergeHookEntry(settings, SPEC);
    expect(result.change).toBe('added');
    expect(settings).toEqual({
      ...EXISTING,
      hooks: {
        ...EXISTING.hooks,
        PreToolUse: [
          ...EXISTING.hooks.PreToolUse,
          { matcher: '*', hooks: [{ type: 'command', command: 'gatehouse hook claude-code', timeout: 30 }] },
        ],
      },
    });
  });

  it('changes nothing the second time', () => {
    const settings = structuredClone(EXISTING) as Record<string, unknown>;
    mergeHookEntry(settings, SPEC);
    const once = structuredClone(settings);
    expect(mergeHookEntry(settings, SPEC).change).toBe('unchanged');
    expect(settings).toEqual(once);
  });

  it('updates its own entry in place when the timeout or command changes', () => {
    const settings = structuredClone(EXISTING) as Record<string, unknown>;
    mergeHookEntry(settings, SPEC);
    const result = mergeHookEntry(settings, {
      ...SPEC,
      handler: { type: 'command', timeout: 60, command: 'gatehouse hook claude-code --budget-ms 55000' },
    });
    expect(result).toMatchObject({
      change: 'updated',
      previous: { matcher: '*', transport: 'command', target: 'gatehouse hook claude-code', timeout: 30 },
    });
    const list = (settings.hooks as { PreToolUse: unknown[] }).PreToolUse;
    expect(list).toHaveLength(2);
    expect(list[1]).toEqual({
      matcher: '*',
      hooks: [{ type: 'command', command: 'gatehouse hook claude-code --budget-ms 55000', timeout: 60 }],
    });
  });

  it('moves its handler out of a group it shares with other hooks rather than change their matcher', () => {
    const settings: Record<string, unknown> = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: './lint-bash.sh' },
              { type: 'command', command: 'gatehouse hook claude-code', timeout: 30 },
            ],
          },
        ],
      },
    };
    mergeHookEntry(settings, SPEC);
    expect((settings.hooks as { PreToolUse: unknown[] }).PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: './lint-bash.sh' }] },
      { matcher: '*', hooks: [{ type: 'command', command: 'gatehouse hook claude-code', timeout: 30 }] },
    ]);
  });

  it('swaps its command hook for the http hook in place, and back, leaving the others', () => {
    const settings = structuredClone(EXISTING) as Record<string, unknown>;
    mergeHookEntry(settings, SPEC);
    const http = httpHandler({
      serverUrl: 'http://127.0.0.1:7300',
      event: 'pre-tool-use',
      mode: 'ask',
      timeoutSeconds: 30,
      onFailureBlock: true,
    });
    const permission = { ...http, url: http.url.replace('pre-tool-use', 'permission-request') };
    expect(
      mergeHookEntry(settings, { handler: http, matcher: '*', permissionRequest: permission }).change,
    ).toBe('updated');
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([EXISTING.hooks.PreToolUse[0], { matcher: '*', hooks: [http] }]);
    expect(hooks.PermissionRequest).toEqual([{ matcher: '*', hooks: [permission] }]);
    expect(JSON.stringify(settings)).not.toMatch(/gha_/);
    expect(mergeHookEntry(settings, SPEC).change).toBe('updated');
    expect(hooks.PreToolUse).toEqual([EXISTING.hooks.PreToolUse[0], { matcher: '*', hooks: [COMMAND] }]);
    expect((settings.hooks as Record<string, unknown[]>).PermissionRequest).toEqual([]);
  });

  it('recognises its own http hook by the route it calls', () => {
    expect(isGatehouseHttpHook('http://127.0.0.1:7300/v1/hooks/claude-code/pre-tool-use?mode=ask')).toBe(
      true,
    );
    expect(isGatehouseHttpHook('https://gh.example/base/v1/hooks/claude-code/permission-request')).toBe(true);
    expect(isGatehouseHttpHook('https://example.com/v1/hooks/claude-code/other')).toBe(false);
  });

  it('recognises its own command however the binary is spelled', () => {
    expect(isGatehouseHook(GUARDED)).toBe(true);
    expect(isGatehouseHook('gatehouse hook claude-code')).toBe(true);
    expect(isGatehouseHook('npx gatehouse hook claude-code --budget-ms 55000')).toBe(true);
    expect(isGatehouseHook('node "/opt/gatehouse/packages/cli/bin/gatehouse.cjs" hook claude-code')).toBe(
      true,
    );
    // The launcher was gatehouse.js before it became CommonJS: hooks installed then are still ours.
    expect(isGatehouseHook('node /opt/gatehouse/packages/cli/bin/gatehouse.js hook claude-code')).toBe(true);
    expect(isGatehouseHook('gatehouse hook claude-codes')).toBe(false);
    expect(isGatehouseHook('./check-bash.sh')).toBe(false);
  });
});

describe('gatehouse hook install claude-code', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const step of cleanup.splice(0)) step();
  });

  function temp(): string {
    const dir = tempDir('gatehouse-install-');
    cleanup.push(dir.remove);
    return dir.dir;
  }

  it('merges into an existing project settings file, and running it twice adds nothing', async () => {
    const project = temp();
    const path = join(project, '.claude', 'settings.json');
    mkdirSync(join(project, '.claude'));
    writeFileSync(path, `${JSON.stringify(EXISTING, null, 2)}\n`);

    const first = await runGatehouse(['hook', 'install', 'claude-code'], { cwd: project });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Added to ${path} the Gatehouse PreToolUse hook:`);
    expect(first.stdout).toContain(`command  ${GUARDED}\n`);
    const written = JSON.parse(readFileSync(path, 'utf8'));
    expect(written.permissions).toEqual(EXISTING.permissions);
    expect(written.model).toBe('sonnet');
    expect(written.hooks.PostToolUse).toEqual(EXISTING.hooks.PostToolUse);
    expect(written.hooks.PreToolUse).toEqual([
      EXISTING.hooks.PreToolUse[0],
      { matcher: '*', hooks: [{ type: 'command', command: GUARDED, timeout: 30 }] },
    ]);

    const before = readFileSync(path, 'utf8');
    const second = await runGatehouse(['hook', 'install', 'claude-code'], { cwd: project });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`The Gatehouse PreToolUse hook is already in ${path}; nothing changed.\n`);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('creates the user settings file with a timeout and a budget 5 s under it', async () => {
    const home = temp();
    const result = await runGatehouse(
      [
        'hook',
        'install',
        'claude-code',
        '--scope',
        'user',
        '--timeout',
        '60',
        '--matcher',
        'Bash|Write|Edit',
        '--json',
      ],
      { env: { HOME: home } },
    );
    expect(result.code).toBe(0);
    const path = join(home, '.claude', 'settings.json');
    expect(JSON.parse(result.stdout)).toMatchObject({ path, change: 'added', created: true });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash|Write|Edit',
            hooks: [{ type: 'command', command: guardedCommand(55_000, 25_000), timeout: 60 }],
          },
        ],
      },
    });
  });

  it('writes through a symlinked settings file instead of replacing the link', async () => {
    const dir = temp();
    const real = join(dir, 'dotfiles-settings.json');
    writeFileSync(real, '{ "model": "opus" }\n');
    const link = join(dir, 'settings.json');
    symlinkSync(real, link);
    const result = await runGatehouse(['hook', 'install', 'claude-code', '--settings', link]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toMatchObject({
      model: 'opus',
      hooks: { PreToolUse: [{ matcher: '*' }] },
    });
  });

  it('refuses a settings file that is not JSON and leaves it untouched', async () => {
    const dir = temp();
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ "hooks": ');
    const result = await runGatehouse(['hook', 'install', 'claude-code', '--settings', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path} is not valid JSON`);
    expect(readFileSync(path, 'utf8')).toBe('{ "hooks": ');
  });

  it('names the clients it knows for an unknown one', async () => {
    const result = await runGatehouse(['hook', 'install', 'cursor', '--settings', join(temp(), 's.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown client 'cursor'; hooks exist for claude-code");
  });
});
