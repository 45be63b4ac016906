import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './testing/cli-server.js';

describe('gatehouse policy and audit against a running server', () => {
  const cli = useCliServer();
  const { gatehouse } = cli;

  describe('policy', () => {
    it('prints each faulty rule of a broken policy and exits 1, leaving the policy as it was', async () => {
      const before = await gatehouse(['policy', 'show', '--json']);
      const file = join(cli.temp.dir, 'broken.yaml');
      writeFileSync(
        file,
        [
          'name: broken',
          'rules:',
          '  - id: shell-needs-approval',
          '    priority: 100',
          '    match: { tools: [shell] }',
          '    condition: "args.command.startsWith("',
          '    action: gate',
          '    reason: shell commands need a person',
          '',
        ].join('\n'),
      );
      const result = await gatehouse(['policy', 'apply', file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error POLICY_INVALID: /);
      expect(result.stderr).toMatch(/\n {2}rule shell-needs-approval \(rules\[0\]\.condition\): /);
      expect((await gatehouse(['policy', 'show', '--json'])).stdout).toBe(before.stdout);
    });

    it('applies a valid policy, shows it, and dry-runs a request against it', async () => {
      const file = join(cli.temp.dir, 'policy.yaml');
      const source = [
        'name: cli-test',
        'rules:',
        '  - id: reads-are-fine',
        '    priority: 100',
        '    match: { tools: [read_file] }',
        '    action: allow',
        '    reason: reads are safe',
        '',
      ].join('\n');
      writeFileSync(file, source);
      const applied = await gatehouse(['policy', 'apply', file]);
      expect(applied.stderr).toBe('');
      expect(applied.stdout).toMatch(/^policy version \d+ is active/);
      const shown = await gatehouse(['policy', 'show']);
      expect(shown.stdout).toBe(source);

      const request = join(cli.temp.dir, 'request.json');
      writeFileSync(request, JSON.stringify({ tool: 'read_file', args: { path: 'README.md' } }));
      const tested = await gatehouse(['policy', 'test', request]);
      expect(tested.code).toBe(0);
      expect(tested.stdout).toMatch(/Rule:\s+reads-are-fine/);
    });
  });

  describe('audit', () => {
    it('verifies the chain on the server and offline, and finds an edited export', async () => {
      const online = await gatehouse(['audit', 'verify']);
      expect(online.code).toBe(0);
      expect(online.stdout).toMatch(/^audit chain intact on the server: \d+ events verified/);

      const exported = await gatehouse(['audit', 'export']);
      expect(exported.code).toBe(0);
      const file = join(cli.temp.dir, 'audit.jsonl');
      writeFileSync(file, exported.stdout);
      const offline = await gatehouse(['audit', 'verify', '--file', file]);
      expect(offline.code).toBe(0);
      expect(offline.stdout).toContain(`audit chain intact in ${file}`);

      const lines = exported.stdout.trimEnd().split('\n');
      const edited = JSON.parse(lines[1] as string) as { kind: string };
      edited.kind = 'nothing.happened';
      lines[1] = JSON.stringify(edited);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const broken = await gatehouse(['audit', 'verify', '--file', file]);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toMatch(/audit chain BROKEN in .* at seq 2: hash_mismatch/);
    });

    it('prints the audit key and verifies an export with it and the published heads, naming a cut tail', async () => {
      const keyFile = join(cli.temp.dir, 'audit-key.pem');
      const key = await gatehouse(['audit', 'key', '-o', keyFile]);
      expect(key.code).toBe(0);
      expect(readFileSync(keyFile, 'utf8')).toContain('BEGIN PUBLIC KEY');
      expect((await gatehouse(['audit', 'key'])).stdout).toBe(readFileSync(keyFile, 'utf8'));

      const file = join(cli.temp.dir, 'signed.jsonl');
      expect((await gatehouse(['audit', 'export', '-o', file])).code).toBe(0);
      const heads = join(cli.temp.dir, 'data', 'audit-heads.jsonl');
      const args = ['audit', 'verify', '--file', file, '--public-key', keyFile, '--heads', heads];
      const intact = await gatehouse(args);
      expect(intact.code).toBe(0);
      expect(intact.stdout).toMatch(/signed checkpoints, the last at seq \d+/);

      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      writeFileSync(file, `${lines.slice(0, -2).join('\n')}\n`);
      const cut = await gatehouse(args);
      expect(cut.code).toBe(1);
      expect(cut.stdout).toMatch(
        /BROKEN in .* at seq \d+: truncated \(signed checkpoint of seq \d+, from the heads\)/,
      );
      const linksOnly = await gatehouse(['audit', 'verify', '--file', file]);
      expect(linksOnly.code).toBe(0);
      expect(linksOnly.stdout).toContain('signatures not checked');
    });

    it('tails the latest events, one line each', async () => {
      const result = await gatehouse(['audit', 'tail', '-n', '3']);
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+ {2}#\d+ {2}\S+/);
      const json = await gatehouse(['audit', 'tail', '-n', '2', '--json']);
      const events = json.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq: number });
      expect(events).toHaveLength(2);
      expect((events[1] as { seq: number }).seq).toBe((events[0] as { seq: number }).seq + 1);
    });
  });
});
