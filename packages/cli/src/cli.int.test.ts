import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyProofText } from '@gatehouse/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  runGatehouse,
  type ServeProcess,
  startServe,
  tempDir,
} from './testing/cli-process.js';

interface GateBody {
  id: string;
  status: string;
  title: string;
  options: { id: string; key: string }[];
}

describe('gatehouse against a running server', () => {
  let server: ServeProcess;
  let temp: { dir: string; remove(): void };
  let env: Record<string, string>;
  let agentToken: string;

  const gatehouse = (args: string[], input?: string): Promise<CliResult> =>
    runGatehouse(args, { env, ...(input === undefined ? {} : { input }) });

  async function asAgent<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${agentToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async function openRun(): Promise<string> {
    const run = await asAgent<{ run?: { id: string }; id?: string }>('POST', '/v1/runs', {
      title: 'cli test run',
    });
    return (run.run?.id ?? run.id) as string;
  }

  /** An agent asks to run a shell command, which the default policy gates. */
  async function openGate(command: string, runId?: string): Promise<GateBody> {
    const result = await asAgent<{ outcome: string; gate: GateBody }>('POST', '/v1/gates', {
      ...(runId === undefined ? {} : { runId }),
      tool: 'shell',
      args: { command },
      title: `delete the build folder (${command})`,
    });
    expect(result.outcome).toBe('gated');
    return result.gate;
  }

  beforeAll(async () => {
    temp = tempDir();
    env = { XDG_CONFIG_HOME: join(temp.dir, 'config') };
    server = await startServe(join(temp.dir, 'data'));
    const login = await gatehouse(['login', '--link', server.loginLink as string]);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const agent = await gatehouse(['agents', 'create', 'build-bot', '--profile', 'coder', '--json']);
    expect(agent.code).toBe(0);
    agentToken = (JSON.parse(agent.stdout) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    temp?.remove();
  });

  describe('login and people', () => {
    it('keeps the session from the login link in a file only its owner can read', () => {
      const file = join(temp.dir, 'config', 'gatehouse', 'credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string };
      expect(stored.url).toBe(server.url);
      expect(stored.token).toMatch(/^ghs_/);
    });

    it('refuses a login link the second time', async () => {
      const again = await runGatehouse(['login', '--link', server.loginLink as string], {
        env: { XDG_CONFIG_HOME: join(temp.dir, 'other-config') },
      });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^error UNAUTHENTICATED: /);
    });

    it('creates a person with a piped password, changes the role, and that person signs in with it', async () => {
      const password = 'a long enough password';
      const created = await gatehouse(['users', 'create', 'dana', '--role', 'developer'], `${password}\n`);
      expect(created.stderr).toBe('');
      expect(created.stdout).toMatch(/^user_\S+ \(dana\) created: developer/);
      const promoted = await gatehouse(['users', 'role', 'dana', 'tech_lead']);
      expect(promoted.stdout).toMatch(/\(dana\) now has the role: tech_lead/);

      const danaEnv = { XDG_CONFIG_HOME: join(temp.dir, 'dana-config') };
      const login = await runGatehouse(['login', '--url', server.url, '--name', 'dana'], {
        env: danaEnv,
        input: `${password}\n`,
      });
      expect(login.code).toBe(0);
      expect(login.stdout).toContain(`Signed in to ${server.url} as dana (tech_lead)`);
      const wrong = await runGatehouse(['login', '--url', server.url, '--name', 'dana'], {
        env: danaEnv,
        input: 'not the password\n',
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/^error UNAUTHENTICATED: /);
    });

    it('lets GATEHOUSE_TOKEN override the stored session', async () => {
      const result = await runGatehouse(['users', 'list'], {
        env: { ...env, GATEHOUSE_URL: server.url, GATEHOUSE_TOKEN: agentToken },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error FORBIDDEN: /);
    });
  });

  describe('agents', () => {
    it('prints a new agent token once, as text', async () => {
      const result = await gatehouse(['agents', 'create', 'docs-bot']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^agent agent_\S+ \(docs-bot\)\ntoken: gha_\S+\n$/);
      expect(result.stderr).toContain('shown only once');
    });

    it('issues a new token by agent name, and revokes them all', async () => {
      const issued = await gatehouse(['agents', 'token', 'docs-bot', '--json']);
      expect(issued.code).toBe(0);
      const { token } = JSON.parse(issued.stdout) as { token: string };
      expect(token).toMatch(/^gha_/);
      const revoked = await gatehouse(['agents', 'token', 'docs-bot', '--revoke']);
      expect(revoked.stdout).toMatch(/: 2 token\(s\) revoked/);
      const me = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(401);
    });

    it("changes an agent's autonomy by name, and refuses an unknown level naming the choices", async () => {
      const changed = await gatehouse(['agents', 'autonomy', 'docs-bot', 'dependent', '--json']);
      expect(changed.code).toBe(0);
      expect(JSON.parse(changed.stdout).agent.autonomy).toBe('dependent');
      const cleared = await gatehouse(['agents', 'autonomy', 'docs-bot', 'profile']);
      expect(cleared.stdout).toMatch(/may go no looser than its profile's level/);
      const wrong = await gatehouse(['agents', 'autonomy', 'docs-bot', 'yolo']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('dependent');
    });
  });

  describe('gates', () => {
    it('lists a pending gate as JSON and as a table', async () => {
      const gate = await openGate('rm -rf build');
      const json = await gatehouse(['gates', 'list', '--status', 'pending', '--json']);
      expect(json.code).toBe(0);
      const page = JSON.parse(json.stdout) as { items: GateBody[] };
      expect(page.items.map((g) => g.id)).toContain(gate.id);
      const table = await gatehouse(['gates', 'list', '--status', 'pending']);
      expect(table.stdout).toMatch(/^ID\s+TYPE\s+RISK\s+STATUS/);
      expect(table.stdout).toContain(gate.id);
    });

    it('prints the box-drawn display of pending gates from `inbox` when stdin is not a terminal', async () => {
      const gate = await openGate('rm -rf dist');
      const result = await gatehouse(['inbox']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^\d+ pending gates?\n/);
      expect(result.stdout).toMatch(/[┌╭╔]/);
      expect(result.stdout).toContain(gate.id);
    });

    it('approves a pending gate, and deciding it again says so', async () => {
      const gate = await openGate('rm -rf tmp');
      const approved = await gatehouse(['gates', 'decide', gate.id, '-o', 'approve', '--reason', 'fine']);
      expect(approved.stderr).toBe('');
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain(`${gate.id}: approved (approve by `);

      const again = await gatehouse(['gates', 'decide', gate.id, '--option', 'reject']);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe('you already decided this gate: you chose approve\n');

      const shown = await gatehouse(['gates', 'show', gate.id]);
      expect(shown.stdout).toMatch(/Decision:\s+approve \(approved\)/);
    });

    it('says who decided first when another person won', async () => {
      const password = 'another long password';
      const created = await gatehouse(
        ['users', 'create', 'erin', '--role', 'developer', '--json'],
        `${password}\n`,
      );
      const erinId = (JSON.parse(created.stdout) as { user: { id: string } }).user.id;
      const session = await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'erin', password }),
      });
      const { token } = (await session.json()) as { token: string };
      const gate = await openGate('rm -rf cache');
      const won = await fetch(`${server.url}/v1/gates/${gate.id}/decide`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ option: 'reject', reason: 'not today' }),
      });
      expect(won.status).toBe(200);

      const late = await gatehouse(['gates', 'decide', gate.id, '--option', 'approve']);
      expect(late.code).toBe(1);
      expect(late.stderr).toBe(`someone else decided first: ${erinId} chose reject\n`);
    });

    it('steers a gate with instructions and affected artifacts', async () => {
      const gate = await openGate('rm -rf src');
      const result = await gatehouse([
        'gates',
        'decide',
        gate.id,
        '--option',
        'steer',
        '--instructions',
        'delete only src/generated',
        '--artifact',
        'src/generated',
        '--json',
      ]);
      expect(result.code).toBe(0);
      const body = JSON.parse(result.stdout) as {
        gate: { status: string; decision: { instructions: string } };
      };
      expect(body.gate.status).toBe('steered');
      expect(body.gate.decision.instructions).toBe('delete only src/generated');
    });

    it('says before sending that a steer on a gate that cannot be steered approves it', async () => {
      const opened = await asAgent<{ outcome: string; gate: GateBody }>('POST', '/v1/gates', {
        operation: 'rebuild the failing index',
        gateType: 'recovery_escalation',
        context: { severity: 'CRITICAL', errorSignature: 'E1' },
      });
      expect(opened.outcome).toBe('gated');
      const steer = [
        'gates',
        'decide',
        opened.gate.id,
        '--option',
        'steer',
        '--instructions',
        'use the replica',
      ];
      const refused = await gatehouse(steer);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--confirm-approval');
      const confirmed = await gatehouse([...steer, '--confirm-approval', '--json']);
      expect(confirmed.code).toBe(0);
      expect(JSON.parse(confirmed.stdout).decision).toMatchObject({
        option: 'approve',
        feedback: 'use the replica',
      });
    });

    it('signs a decision with --sign-key on a gate that needs a signature', async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const keyFile = join(temp.dir, 'reviewer.pem');
      writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const session = JSON.parse(
        readFileSync(join(temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8'),
      );
      const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
      const me = (await (await fetch(`${server.url}/v1/me`, { headers })).json()) as { user: { id: string } };
      const { challenge } = (await (
        await fetch(`${server.url}/v1/me/keys/challenge`, { headers })
      ).json()) as {
        challenge: string;
      };
      const proof = sign(null, Buffer.from(keyProofText({ challenge, userId: me.user.id })), privateKey);
      const registered = await fetch(`${server.url}/v1/me/keys`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
          challenge,
          proof: proof.toString('base64'),
        }),
      });
      expect(registered.status).toBe(201);
      // A signed gate keeps an agent's owner from approving it, so this agent belongs to another admin.
      const password = 'the other admin password';
      await gatehouse(['users', 'create', 'olive', '--role', 'admin'], `${password}\n`);
      const login = await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'olive', password }),
      });
      const olive = ((await login.json()) as { token: string }).token;
      const created = await fetch(`${server.url}/v1/agents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${olive}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'lint-bot' }),
      });
      const lintBot = ((await created.json()) as { token: string }).token;
      const opened = await fetch(`${server.url}/v1/gates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${lintBot}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          tool: 'lint',
          args: { rule: 'no-secrets', file: 'config/test.env' },
          gateType: 'false_positive_override',
          context: { falsePositiveReported: true },
        }),
      });
      const result = (await opened.json()) as { gate: GateBody & { signatureRequired: boolean } };
      expect(result.gate.signatureRequired).toBe(true);

      const unsigned = await gatehouse(['gates', 'decide', result.gate.id, '--option', 'legitimate']);
      expect(unsigned.code).toBe(1);
      expect(unsigned.stderr).toMatch(/^error SIGNATURE_REQUIRED: /);

      const signed = await gatehouse([
        'gates',
        'decide',
        result.gate.id,
        '--option',
        'legitimate',
        '--reason',
        'a test fixture, not a secret',
        '--sign-key',
        keyFile,
        '--json',
      ]);
      expect(signed.stderr).toBe('');
      const body = JSON.parse(signed.stdout) as {
        gate: { status: string; decision: { signature?: string } };
      };
      expect(body.gate.status).not.toBe('pending');
      expect(body.gate.decision.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    });

    it('passes the server refusal of an unknown option through with exit code 1', async () => {
      const gate = await openGate('rm -rf logs');
      const result = await gatehouse(['gates', 'decide', gate.id, '--option', 'maybe']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error (INVALID_OPTION|VALIDATION_FAILED): /);
    });
  });

  describe('runs', () => {
    it('pauses, resumes, steers and stops a run', async () => {
      const runId = await openRun();
      const paused = await gatehouse(['runs', 'pause', runId]);
      expect(paused.stderr).toBe('');
      expect(paused.code).toBe(0);
      let show = JSON.parse((await gatehouse(['runs', 'show', runId, '--json'])).stdout) as {
        run: { status: string; instructions: string[] };
      };
      expect(show.run.status).toBe('paused');

      expect((await gatehouse(['runs', 'resume', runId])).code).toBe(0);
      expect((await gatehouse(['runs', 'steer', runId, 'use', 'the', 'staging', 'database'])).code).toBe(0);
      show = JSON.parse((await gatehouse(['runs', 'show', runId, '--json'])).stdout) as typeof show;
      expect(show.run.status).toBe('running');
      expect(show.run.instructions).toContain('use the staging database');

      expect((await gatehouse(['runs', 'stop', runId])).code).toBe(0);
      const text = await gatehouse(['runs', 'show', runId]);
      expect(text.stdout).toMatch(/Status:\s+stopped/);
      const list = await gatehouse(['runs', 'list', '--status', 'stopped']);
      expect(list.stdout).toContain(runId);
    });
  });

  describe('policy', () => {
    it('prints each faulty rule of a broken policy and exits 1, leaving the policy as it was', async () => {
      const before = await gatehouse(['policy', 'show', '--json']);
      const file = join(temp.dir, 'broken.yaml');
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
      const file = join(temp.dir, 'policy.yaml');
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

      const request = join(temp.dir, 'request.json');
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
      const file = join(temp.dir, 'audit.jsonl');
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
      const keyFile = join(temp.dir, 'audit-key.pem');
      const key = await gatehouse(['audit', 'key', '-o', keyFile]);
      expect(key.code).toBe(0);
      expect(readFileSync(keyFile, 'utf8')).toContain('BEGIN PUBLIC KEY');
      expect((await gatehouse(['audit', 'key'])).stdout).toBe(readFileSync(keyFile, 'utf8'));

      const file = join(temp.dir, 'signed.jsonl');
      expect((await gatehouse(['audit', 'export', '-o', file])).code).toBe(0);
      const heads = join(temp.dir, 'data', 'audit-heads.jsonl');
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

  it('names the error code when the server refuses', async () => {
    const result = await gatehouse(['gates', 'show', 'gate_doesnotexist']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error NOT_FOUND: /);
  });
});
