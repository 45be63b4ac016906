import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  runGatehouse,
  type ServeProcess,
  startServe,
  tempDir,
} from './testing/cli-process.js';

interface Entry {
  id: string;
  pattern: string;
  scope: string;
  path: string | null;
  status: string;
  expiresAt: number;
  reviewedAt: number | null;
}

describe('gatehouse whitelist against a running server', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;

  const gatehouse = (args: string[]): Promise<CliResult> => runGatehouse(args, { env });

  async function json<T>(args: string[]): Promise<T> {
    const result = await gatehouse([...args, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    server = await startServe(join(temp.dir, 'data'));
    expect((await gatehouse(['login', '--link', server.loginLink as string])).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  it('adds, lists, renews and removes an entry', async () => {
    const added = await gatehouse([
      'whitelist',
      'add',
      'lazy.error_swallowed',
      '--path',
      'src/legacy/**',
      '--justification',
      'adapters log and drop by design',
    ]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const [, id] =
      /^(wl_\S+): lazy\.error_swallowed in src\/legacy\/\*\* whitelisted, until /.exec(added.stdout) ?? [];
    expect(id).toBeDefined();

    const listed = await gatehouse(['whitelist', 'list']);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${id}\\s+lazy\\.error_swallowed\\s+file\\s+src/legacy/\\*\\*\\s+\\(any\\)\\s+0\\s+active`,
        'm',
      ),
    );
    const { whitelists } = await json<{ whitelists: Entry[] }>(['whitelist', 'list']);
    expect(whitelists).toEqual([
      expect.objectContaining({ id, scope: 'file', path: 'src/legacy/**', reviewedAt: null }),
    ]);

    const { whitelist } = await json<{ whitelist: Entry }>(['whitelist', 'renew', id as string]);
    expect(whitelist.reviewedAt).toEqual(expect.any(Number));

    expect((await gatehouse(['whitelist', 'remove', id as string])).stdout).toBe(`${id}: removed\n`);
    expect((await json<{ whitelists: Entry[] }>(['whitelist', 'list'])).whitelists).toEqual([]);
  });

  it('refuses an entry without a scope or with a short justification, saying why', async () => {
    const noScope = await gatehouse([
      'whitelist',
      'add',
      'lazy.todo_left',
      '--justification',
      'tracked in issues',
    ]);
    expect(noScope.code).not.toBe(0);
    expect(noScope.stderr).toContain('--path <glob> (file scope) or --global');
    const short = await gatehouse([
      'whitelist',
      'add',
      'lazy.todo_left',
      '--global',
      '--justification',
      'ok',
    ]);
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('justification');
  });

  it('explains itself with --help', async () => {
    const help = await gatehouse(['whitelist', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('list');
    expect(help.stdout).toContain('renew');
    const add = await gatehouse(['whitelist', 'add', '--help']);
    expect(add.stdout).toContain('--justification');
  });
});
