import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './testing/cli-in-process.js';
import { runGatehouse } from './testing/cli-process.js';

const SUBCOMMANDS: Record<string, string[]> = {
  serve: [],
  migrate: [],
  login: [],
  inbox: [],
  gates: ['list', 'show', 'decide'],
  runs: ['list', 'show', 'pause', 'resume', 'stop', 'steer'],
  policy: ['show', 'apply', 'test'],
  rules: ['list', 'revoke'],
  audit: ['tail', 'export', 'verify'],
  agents: ['create', 'token'],
  users: ['create', 'role'],
  webhooks: ['create', 'list', 'show', 'update', 'delete', 'deliveries', 'delivery', 'redeliver'],
  notifications: ['rules', 'list'],
  hook: ['claude-code', 'install'],
  mcp: ['proxy'],
  completion: [],
  version: [],
};

const withSubcommands = Object.entries(SUBCOMMANDS).filter(([, subs]) => subs.length > 0);
const everyAction: [string, string[]][] = Object.entries(SUBCOMMANDS)
  .flatMap(([command, subs]) => (subs.length === 0 ? [[command]] : subs.map((sub) => [command, sub])))
  .map((words) => [words.join(' '), words]);

describe('gatehouse --help', () => {
  it('lists every command and exits 0', async () => {
    const result = await runGatehouse(['--help']);
    expect(result.code).toBe(0);
    for (const command of Object.keys(SUBCOMMANDS))
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('prints the same with no arguments and with `help`', async () => {
    const [bare, help, flag] = await Promise.all([
      runCliInProcess([]),
      runCliInProcess(['help']),
      runGatehouse(['--help']),
    ]);
    expect(bare.stdout).toBe(flag.stdout);
    expect(help.stdout).toBe(flag.stdout);
  });

  // The binary's own --help runs as a process above; every command's help is the same code in this process.
  it.each(withSubcommands)('`%s --help` names each of its subcommands', async (command, subs) => {
    const result = await runCliInProcess([command, '--help']);
    expect(result.code).toBe(0);
    for (const sub of subs) expect(result.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
  });

  it.each(everyAction)('`%s --help` shows its usage and options', async (name, words) => {
    const result = await runCliInProcess([...words, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: gatehouse ${name}`);
    expect(result.stdout).toContain('-h, --help');
    expect(result.stderr).toBe('');
  });

  it('`help gates decide` equals `gates decide --help`', async () => {
    const [help, flag] = await Promise.all([
      runCliInProcess(['help', 'gates', 'decide']),
      runCliInProcess(['gates', 'decide', '--help']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(flag.stdout);
    expect(help.stdout).toContain('--option <option>');
  });

  it('runs through the launcher npm links as the `gatehouse` binary', async () => {
    const launcher = fileURLToPath(new URL('../bin/gatehouse.cjs', import.meta.url));
    const { stdout, status } = spawnSync(launcher, ['--version'], { encoding: 'utf8' });
    expect(status).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints the version', async () => {
    const result = await runGatehouse(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('wrong usage exits 2 with a clear message', () => {
  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['help', 'frobnicate'], "unknown command 'frobnicate'"],
    [['gates', 'approve'], "unknown subcommand 'approve' for gatehouse gates"],
    [['gates', 'list', '--colour'], "unknown option '--colour' for gatehouse gates list"],
    [['--verbose'], "unknown option '--verbose'"],
    [['gates', 'show'], 'gatehouse gates show needs <gate-id>'],
    [['gates', 'show', 'gate_1', 'gate_2'], "unexpected argument 'gate_2'"],
    [['gates', 'decide', 'gate_1'], 'gatehouse gates decide needs --option'],
    [['gates', 'decide', 'gate_1', '--edit', 'command=ls'], '--edit is not valid JSON'],
    [['gates', 'list', '--status', 'maybe'], '--status must be one of pending'],
    [['gates', 'list', '--limit', 'ten'], '--limit must be a whole number from 1 to 500'],
    [['runs', 'steer', 'run_1'], 'steer needs a non-empty instruction'],
    [['users', 'role', 'dana', 'boss'], 'the role must be one of viewer, developer, tech_lead, admin'],
    [['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--database', 'mysql://x'], '--database takes a Postgres URL'],
    [['login'], 'give --name <person>'],
    [['audit', 'export', '--json'], "unknown option '--json'"],
  ])('%j', async (args, message) => {
    const result = await runCliInProcess(args as string[], {
      env: { XDG_CONFIG_HOME: '/nonexistent', GATEHOUSE_TOKEN: 'ghs_test' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stderr).toMatch(/Run `gatehouse .*--help` for usage\./);
    expect(result.stdout).toBe('');
  });

  it('exits 2 as a process too', async () => {
    const result = await runGatehouse(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown command 'frobnicate'");
  });
});

describe('--json errors', () => {
  it('prints a usage error on stderr as JSON with its code, exit 2', async () => {
    const result = await runCliInProcess(['gates', 'list', '--status', 'maybe', '--json'], {
      env: { XDG_CONFIG_HOME: '/nonexistent', GATEHOUSE_TOKEN: 'ghs_test' },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr) as { error: { code: string; message: string; help: string } };
    expect(error.code).toBe('USAGE_ERROR');
    expect(error.message).toContain('--status must be one of pending');
    expect(error.help).toBe('gatehouse gates list --help');
  });

  it('names an unreachable server and a missing sign-in by code', async () => {
    const unreachable = await runGatehouse(['gates', 'list', '--json'], {
      env: { GATEHOUSE_URL: 'http://127.0.0.1:9', GATEHOUSE_TOKEN: 'ghs_x' },
    });
    expect(unreachable.code).toBe(1);
    expect(JSON.parse(unreachable.stderr).error.code).toBe('SERVER_UNREACHABLE');
    const signedOut = await runCliInProcess(['runs', 'list', '--json'], {
      env: { XDG_CONFIG_HOME: '/nonexistent' },
    });
    expect(signedOut.code).toBe(1);
    expect(JSON.parse(signedOut.stderr).error).toMatchObject({
      code: 'NOT_SIGNED_IN',
      message: expect.stringContaining('gatehouse login'),
    });
  });
});

describe('without a server', () => {
  it('says how to sign in when nobody has', async () => {
    const result = await runGatehouse(['gates', 'list'], { env: { XDG_CONFIG_HOME: '/nonexistent' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: not signed in to http://127.0.0.1:7300; run `gatehouse login');
  });

  it('says the server cannot be reached, exit code 1', async () => {
    const result = await runGatehouse(['gates', 'list'], {
      env: { GATEHOUSE_URL: 'http://127.0.0.1:9', GATEHOUSE_TOKEN: 'ghs_x' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: cannot reach the Gatehouse server at http://127.0.0.1:9');
  });
});
