import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyProofText } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { runGatehouse } from './testing/cli-process.js';
import { callApi, useCliServer } from './testing/cli-server.js';

interface GateBody {
  id: string;
  status: string;
  title: string;
  options: { id: string; key: string }[];
}

describe('gatehouse against a running server', () => {
  const cli = useCliServer();
  const { gatehouse, asAgent } = cli;

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

  describe('login and people', () => {
    it('keeps the session from the login link in a file only its owner can read', () => {
      const file = join(cli.temp.dir, 'config', 'gatehouse', 'credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string };
      expect(stored.url).toBe(cli.server.url);
      expect(stored.token).toMatch(/^ghs_/);
    });

    it('refuses a login link the second time', async () => {
      const again = await runGatehouse(['login', '--link', cli.server.loginLink as string], {
        env: { XDG_CONFIG_HOME: join(cli.temp.dir, 'other-config') },
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

      const danaEnv = { XDG_CONFIG_HOME: join(cli.temp.dir, 'dana-config') };
      const login = await runGatehouse(['login', '--url', cli.server.url, '--name', 'dana'], {
        env: danaEnv,
        input: `${password}\n`,
      });
      expect(login.code).toBe(0);
      expect(login.stdout).toContain(`Signed in to ${cli.server.url} as dana (tech_lead)`);
      const wrong = await runGatehouse(['login', '--url', cli.server.url, '--name', 'dana'], {
        env: danaEnv,
        input: 'not the password\n',
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/^error UNAUTHENTICATED: /);
    });

    it('lets GATEHOUSE_TOKEN override the stored session', async () => {
      const result = await runGatehouse(['users', 'list'], {
        env: { ...cli.env, GATEHOUSE_URL: cli.server.url, GATEHOUSE_TOKEN: cli.agentToken },
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
      const me = await fetch(`${cli.server.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
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

    it('reports a shown pending gate as its arguments seen, so review health counts a terminal review', async () => {
      const stored = JSON.parse(
        readFileSync(join(cli.temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8'),
      ) as { token: string };
      const me = await callApi<{ user: { id: string } }>(
        { url: cli.server.url, token: stored.token },
        'GET',
        '/v1/me',
      );
      const figures = async () => {
        const health = await callApi<{
          reviewers: { reviewer: string; approvals: number; blindApprovals: number }[];
        }>({ url: cli.server.url, token: stored.token }, 'GET', '/v1/review-health');
        return (
          health.reviewers.find((reviewer) => reviewer.reviewer === me.user.id) ?? {
            approvals: 0,
            blindApprovals: 0,
          }
        );
      };
      const before = await figures();

      const seen = await openGate('rm -rf coverage');
      expect((await gatehouse(['gates', 'show', seen.id])).code).toBe(0);
      await gatehouse(['gates', 'decide', seen.id, '-o', 'approve']);
      const afterSeen = await figures();
      expect(afterSeen.approvals).toBe(before.approvals + 1);
      expect(afterSeen.blindApprovals).toBe(before.blindApprovals);

      const unseen = await openGate('rm -rf reports');
      await gatehouse(['gates', 'decide', unseen.id, '-o', 'approve']);
      expect((await figures()).blindApprovals).toBe(before.blindApprovals + 1);
    });

    it('says who decided first when another person won', async () => {
      const password = 'another long password';
      const created = await gatehouse(
        ['users', 'create', 'erin', '--role', 'developer', '--json'],
        `${password}\n`,
      );
      const erinId = (JSON.parse(created.stdout) as { user: { id: string } }).user.id;
      const session = await fetch(`${cli.server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'erin', password }),
      });
      const { token } = (await session.json()) as { token: string };
      const gate = await openGate('rm -rf cache');
      const won = await fetch(`${cli.server.url}/v1/gates/${gate.id}/decide`, {
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
      const keyFile = join(cli.temp.dir, 'reviewer.pem');
      writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const session = JSON.parse(
        readFileSync(join(cli.temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8'),
      );
      const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
      const me = (await (await fetch(`${cli.server.url}/v1/me`, { headers })).json()) as {
        user: { id: string };
      };
      const { challenge } = (await (
        await fetch(`${cli.server.url}/v1/me/keys/challenge`, { headers })
      ).json()) as {
        challenge: string;
      };
      const proof = sign(null, Buffer.from(keyProofText({ challenge, userId: me.user.id })), privateKey);
      const registered = await fetch(`${cli.server.url}/v1/me/keys`, {
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
      const login = await fetch(`${cli.server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'olive', password }),
      });
      const olive = ((await login.json()) as { token: string }).token;
      const created = await fetch(`${cli.server.url}/v1/agents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${olive}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'lint-bot' }),
      });
      const lintBot = ((await created.json()) as { token: string }).token;
      const opened = await fetch(`${cli.server.url}/v1/gates`, {
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

  it('names the error code when the server refuses', async () => {
    const result = await gatehouse(['gates', 'show', 'gate_doesnotexist']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error NOT_FOUND: /);
  });
});
