import { describe, expect, it } from 'vitest';
import { useCliServer } from './testing/cli-server.js';

describe('gatehouse users slack', () => {
  const cli = useCliServer();

  it('sets, shows and removes a person’s Slack member id, and names a bad one', async () => {
    const created = await cli.gatehouse(
      ['users', 'create', 'dana', '--role', 'developer'],
      'a long enough password\n',
    );
    expect(created.code, created.stderr).toBe(0);
    const set = await cli.gatehouse(['users', 'slack', 'dana', 'U024BE7LH']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/is Slack user U024BE7LH/);
    const shown = await cli.gatehouse(['users', 'slack', 'dana', '--json']);
    expect(JSON.parse(shown.stdout).slack.slackUserId).toBe('U024BE7LH');
    const bad = await cli.gatehouse(['users', 'slack', 'dana', 'not-an-id']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('slackUserId');
    const removed = await cli.gatehouse(['users', 'slack', 'dana', '--remove']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('has no Slack user');
    const help = await cli.gatehouse(['users', 'slack', '--help']);
    expect(help.stdout).toContain('--remove');
  }, 60_000);
});
