import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyProofText } from 'gatehouse-hitl-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, useCliServer } from '../testing/cli-server.js';

interface Entry {
  sourceGateId: string | null;
  path: string | null;
  agentId: string | null;
  createdAt: number;
  expiresAt: number;
}

describe('gatehouse gates decide --option whitelist with a chosen scope, against a running server', () => {
  const cli = useCliServer();
  const { gatehouse } = cli;
  let keyFile = '';
  let adminToken = '';
  let otherAgent = '';
  let folder = 0;

  beforeAll(async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    keyFile = join(cli.temp.dir, 'tech-lead.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const session = JSON.parse(
      readFileSync(join(cli.temp.dir, 'config', 'gatehouse', 'credentials.json'), 'utf8'),
    );
    adminToken = session.token;
    const to = { url: cli.server.url, token: adminToken };
    const me = await callApi<{ user: { id: string } }>(to, 'GET', '/v1/me');
    const { challenge } = await callApi<{ challenge: string }>(to, 'GET', '/v1/me/keys/challenge');
    const proof = sign(null, Buffer.from(keyProofText({ challenge, userId: me.user.id })), privateKey);
    await callApi(to, 'POST', '/v1/me/keys', {
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
      challenge,
      proof: proof.toString('base64'),
    });
    // A signed gate keeps an agent's owner from deciding it, so the agent belongs to another admin.
    const password = 'the other admin password';
    await gatehouse(['users', 'create', 'olive', '--role', 'admin'], `${password}\n`);
    const login = await fetch(`${cli.server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'olive', password }),
    });
    const olive = { url: cli.server.url, token: ((await login.json()) as { token: string }).token };
    otherAgent = (await callApi<{ token: string }>(olive, 'POST', '/v1/agents', { name: 'port-bot' })).token;
  }, 60_000);

  /** An unsure finding of port-bot's analysis in a folder of its own: its false_positive_override gate. */
  async function unsureFinding(): Promise<{ gateId: string; dir: string }> {
    const to = { url: cli.server.url, token: otherAgent };
    const run = await callApi<{ run: { id: string } }>(to, 'POST', '/v1/runs', { title: 'Ruby port' });
    folder += 1;
    const dir = `lib/legacy-${folder}`;
    const answer = await callApi<{ gates: { id: string; type: string }[] }>(to, 'POST', '/v1/analyze', {
      runId: run.run.id,
      files: [
        {
          path: `${dir}/cart.rb`,
          before: 'def total\n  1\nend\n',
          after: 'def total\n  raise NotImplementedError\nend\n',
        },
      ],
    });
    const gate = answer.gates.find((one) => one.type === 'false_positive_override');
    expect(gate).toBeDefined();
    return { gateId: gate?.id as string, dir };
  }

  async function entryFrom(gateId: string): Promise<Entry | undefined> {
    const list = await callApi<{ whitelists: Entry[] }>(
      { url: cli.server.url, token: adminToken },
      'GET',
      '/v1/whitelists',
    );
    return list.whitelists.find((entry) => entry.sourceGateId === gateId);
  }

  const decide = (gateId: string, flags: string[]) =>
    gatehouse([
      'gates',
      'decide',
      gateId,
      '--option',
      'whitelist',
      '--reason',
      'the ruby port raises until it lands',
      '--sign-key',
      keyFile,
      ...flags,
    ]);

  it('sends the glob, every agent and the days given, saying the scope first', async () => {
    const { gateId, dir } = await unsureFinding();
    const result = await decide(gateId, [
      '--whitelist-path',
      `${dir}/**`,
      '--whitelist-agents',
      'every',
      '--whitelist-days',
      '30',
    ]);
    expect(result.stderr).toBe(`whitelisting files matching ${dir}/**, for every agent, for 30 days\n`);
    expect(result.code).toBe(0);
    const entry = await entryFrom(gateId);
    expect(entry).toMatchObject({ path: `${dir}/**`, agentId: null });
    expect((entry?.expiresAt ?? 0) - (entry?.createdAt ?? 0)).toBe(30 * 86_400_000);
  });

  it('signs the narrowest scope when no scope is given', async () => {
    const { gateId, dir } = await unsureFinding();
    const result = await decide(gateId, []);
    expect(result.stderr).toBe("whitelisting the finding's file, for the gate's agent only, for 90 days\n");
    expect(result.code, result.stderr).toBe(0);
    expect(await entryFrom(gateId)).toMatchObject({ path: `${dir}/cart.rb` });
  });

  it('passes the server’s refusal of a glob matching every file through, naming whitelist.path', async () => {
    const { gateId } = await unsureFinding();
    const result = await decide(gateId, ['--whitelist-path', '**']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('VALIDATION_FAILED');
    expect(result.stderr).toContain('whitelist.path: ** matches every file');
    expect(await entryFrom(gateId)).toBeUndefined();
  });

  it.each([
    [['--option', 'legitimate', '--whitelist-days', '5'], '--whitelist-days is for a Whitelist decision'],
    [['--option', 'whitelist', '--whitelist-agents', 'all'], '--whitelist-agents must be this or every'],
  ])('refuses %j before sending anything', async (flags, message) => {
    const { gateId } = await unsureFinding();
    const result = await gatehouse(['gates', 'decide', gateId, ...flags, '--reason', 'a long enough reason']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
    expect(await entryFrom(gateId)).toBeUndefined();
  });
});
