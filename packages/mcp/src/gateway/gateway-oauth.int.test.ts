import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type OidcProviderProcess,
  providerAccessToken,
  startOidcProvider,
} from 'gatehouse-hitl-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTES_SCRIPT } from '../testing/gateway/gateway-harness.js';
import { callTool, type LiveServer, startLiveServer, textOf } from '../testing/harness.js';

// One gateway, a team with different rights: engineering writes notes, leads read and use prompts.
const TEAM_POLICY = `name: team-gateway
defaultAction: gate
rules:
  - id: engineering-writes
    priority: 500
    match: { tools: [notes__write_note] }
    condition: '"engineering" in actor.groups'
    action: allow
    reason: Engineering keeps the notes.
  - id: nobody-else-writes
    priority: 400
    match: { tools: [notes__write_note] }
    action: deny
    reason: Only engineering writes notes.
  - id: leads-read
    priority: 500
    match: { tools: [notes__resources/read, notes__prompts/get] }
    condition: '"leads" in actor.groups'
    action: allow
    reason: Leads read the notes and use their prompts.
  - id: nobody-else-reads
    priority: 400
    match: { tools: [notes__resources/read, notes__prompts/get] }
    action: deny
    reason: Only leads read the notes.
`;

describe('OAuth for MCP over HTTP and per-person rules at the hosted gateway', () => {
  let provider: OidcProviderProcess;
  let server: LiveServer;
  let dir: string;
  let resource: string;

  beforeAll(async () => {
    provider = await startOidcProvider();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-gateway-oauth-'));
    const configFile = join(dir, 'mcp.json');
    const notes = {
      command: process.execPath,
      args: [NOTES_SCRIPT],
      env: { NOTES_RECORD_FILE: join(dir, 'calls.jsonl') },
    };
    writeFileSync(configFile, JSON.stringify({ mcpServers: { notes } }));
    server = await startLiveServer({
      mcpGateway: { configFile, env: {} },
      sso: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        scopes: 'openid profile email groups',
        groupsClaim: 'groups',
        roles: [{ group: '*', role: 'viewer' }],
        providerName: 'Test ID',
      },
      mcpOAuth: { agentName: 'team-gateway' },
    });
    await server.test.services.agents.create(server.test.ids.adminId, { name: 'team-gateway' });
    await server.test.services.policies.replace(server.test.ids.adminId, {
      source: TEAM_POLICY,
      format: 'yaml',
    });
    resource = `${server.url}/mcp/gateway`;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await provider?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  function initialize(token: string | null): Promise<Response> {
    return fetch(resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
  }

  it('publishes protected resource metadata naming the provider, and points a caller without a token at it', async () => {
    const metadata = await (
      await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp/gateway`)
    ).json();
    expect(metadata).toEqual({
      resource,
      authorization_servers: [provider.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'Gatehouse MCP gateway',
    });
    const root = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json()) as {
      authorization_servers: string[];
    };
    expect(root.authorization_servers).toEqual([provider.issuer]);

    const refused = await initialize(null);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="gatehouse", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/gateway"`,
    );
  });

  it('refuses a token made out to another resource, and a token that is not the provider’s', async () => {
    const elsewhere = await providerAccessToken(provider, {
      login: 'dana',
      resource: `${server.url}/elsewhere`,
    });
    expect((await initialize(elsewhere)).status).toBe(401);
    const [header, payload] = (await providerAccessToken(provider, { login: 'dana', resource })).split('.');
    expect((await initialize(`${header}.${payload}.${'A'.repeat(342)}`)).status).toBe(401);
  });

  it('gives two people different answers through the same gateway: one allowed, one denied', async () => {
    const dana = await connect(await providerAccessToken(provider, { login: 'dana', resource }));
    const lee = await connect(await providerAccessToken(provider, { login: 'lee', resource }));
    try {
      expect(textOf(await callTool(dana, 'notes__write_note', { title: 'standup' }))).toBe('saved standup');
      const denied = await callTool(lee, 'notes__write_note', { title: 'standup' });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('Denied by the Gatehouse policy (rule nobody-else-writes)');

      const events = [];
      for await (const event of server.test.store.streamAudit())
        if (event.kind.startsWith('request.')) events.push(event);
      expect(events.map((event) => [event.kind, event.data.actingFor])).toEqual([
        ['request.allowed', 'dana'],
        ['request.denied', 'lee'],
      ]);
    } finally {
      await dana.close();
      await lee.close();
    }
  });

  it('applies the per-person rules to resource reads and prompts as to tools', async () => {
    const dana = await connect(await providerAccessToken(provider, { login: 'dana', resource }));
    const lee = await connect(await providerAccessToken(provider, { login: 'lee', resource }));
    try {
      const readme = await lee.readResource({ uri: 'notes://readme' });
      expect(readme.contents[0]).toMatchObject({ text: 'notes server readme' });
      await expect(dana.readResource({ uri: 'notes://readme' })).rejects.toThrow(/rule nobody-else-reads/);

      const prompt = await lee.getPrompt({ name: 'notes__summarize', arguments: { topic: 'milk' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize the notes about milk.' });
      await expect(
        dana.getPrompt({ name: 'notes__summarize', arguments: { topic: 'milk' } }),
      ).rejects.toThrow(/rule nobody-else-reads/);
    } finally {
      await dana.close();
      await lee.close();
    }
  });

  it('answers a long-poll made with a provider’s token once its gate is decided, the token checked again', async () => {
    const token = await providerAccessToken(provider, { login: 'dana', resource });
    const asAgent = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    const asked = await asAgent('/v1/gates', {
      method: 'POST',
      body: JSON.stringify({ tool: 'notes__archive', args: { title: 'old' } }),
    });
    const { outcome, gateId } = (await asked.json()) as { outcome: string; gateId: string };
    expect(outcome).toBe('gated');
    const waiting = asAgent(`/v1/gates/${gateId}/wait?timeoutMs=30000`);
    while (server.test.services.gates.waiting() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const decided = await server.test.app.inject({
      method: 'POST',
      url: `/v1/gates/${gateId}/decide`,
      headers: { authorization: `Bearer ${server.test.tokens.admin}` },
      payload: { option: 'approve' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ outcome: 'approved', gate: { id: gateId } });
  });

  it('keeps agent tokens working beside OAuth: an agent acts for nobody in particular', async () => {
    const agent = await connect(server.test.tokens.agent);
    try {
      const denied = await callTool(agent, 'notes__write_note', { title: 'from the agent' });
      expect(textOf(denied)).toContain('rule nobody-else-writes');
    } finally {
      await agent.close();
    }
  });
});
