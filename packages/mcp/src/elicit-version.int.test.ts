import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ClientCapabilities,
  type ClientRequest,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatehouseApi } from './api.js';
import { resolveOperator } from './elicit.js';
import { createGatehouseMcpServer } from './server.js';
import { callTool, createRun, type Json, type LiveServer, startLiveServer } from './testing/harness.js';

type Handler = (
  request: ElicitRequest,
  extra: RequestHandlerExtra<ClientRequest, never>,
) => Promise<ElicitResult>;

interface Session {
  client: Client;
  /** Every message the server sent the client. */
  seen: JSONRPCMessage[];
  close(): Promise<void>;
}

const PAGES = 'https://gatehouse.example.test';

function methodsOf(seen: JSONRPCMessage[], method: string): Json[] {
  return seen.filter((message) => 'method' in message && message.method === method) as Json[];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('elicitation follows the negotiated protocol version and capabilities', () => {
  let server: LiveServer;

  beforeAll(async () => {
    server = await startLiveServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The official SDK Client, asking for `version` at initialize, with `handler` answering elicitations. */
  async function session(options: {
    version: string;
    capabilities: ClientCapabilities;
    operator: boolean;
    handler: Handler;
  }): Promise<Session> {
    const runId = await createRun(server);
    const operator = options.operator
      ? await resolveOperator(new GatehouseApi({ url: server.url, token: server.test.tokens.developer }))
      : null;
    const mcp = createGatehouseMcpServer({
      url: server.url,
      token: server.test.tokens.agent,
      runId,
      operator,
      gatePages: PAGES,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, sendOptions) => {
      if ('method' in message && message.method === 'initialize') {
        const params = { ...message.params, protocolVersion: options.version };
        return send({ ...message, params } as JSONRPCMessage, sendOptions);
      }
      return send(message, sendOptions);
    };
    const client = new Client(
      { name: 'elicit-test', version: '1.0.0' },
      { capabilities: options.capabilities },
    );
    client.setRequestHandler(ElicitRequestSchema, options.handler as never);
    await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
    const seen: JSONRPCMessage[] = [];
    const deliver = clientSide.onmessage;
    clientSide.onmessage = (message, extra) => {
      seen.push(message);
      deliver?.(message, extra);
    };
    return { client, seen, close: () => client.close() };
  }

  const ask = (client: Client, waitSeconds = 20) =>
    callTool(client, 'gatehouse_request_approval', {
      tool: 'shell',
      args: { command: 'rm -rf build' },
      waitSeconds,
    });

  const decide = (gateId: string, option: string, token = server.test.tokens.admin) =>
    server.call(token, 'POST', `/v1/gates/${gateId}/decide`, { option });

  it('2025-06-18: a form without mode, the decision as enum with enumNames, no defaults', async () => {
    const asked: Json[] = [];
    const s = await session({
      version: '2025-06-18',
      capabilities: { elicitation: {} },
      operator: true,
      handler: async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { option: 'approve' } };
      },
    });
    try {
      const result = await ask(s.client);
      expect(result.structuredContent).toMatchObject({
        status: 'approved',
        decidedBy: server.test.ids.developerId,
      });
      expect(asked).toHaveLength(1);
      const params = asked[0];
      expect(params.mode).toBeUndefined();
      const option = params.requestedSchema.properties.option;
      expect(option.oneOf).toBeUndefined();
      expect(option.enum).toContain('approve');
      expect(option.enumNames).toHaveLength(option.enum.length);
      expect(JSON.stringify(params.requestedSchema)).not.toContain('"default"');
      expect(params.requestedSchema.required).toEqual(['option']);
    } finally {
      await s.close();
    }
  });

  it('2025-11-25: mode form, the decision as titled oneOf choices, still no default', async () => {
    const asked: Json[] = [];
    const s = await session({
      version: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      operator: true,
      handler: async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { option: 'approve' } };
      },
    });
    try {
      await ask(s.client);
      const params = asked[0];
      expect(params.mode).toBe('form');
      const option = params.requestedSchema.properties.option;
      expect(option.enum).toBeUndefined();
      expect(option.oneOf).toContainEqual({ const: 'approve', title: expect.any(String) });
      expect(JSON.stringify(params.requestedSchema)).not.toContain('"default"');
    } finally {
      await s.close();
    }
  });

  it.each(['2025-03-26', '2024-11-05'])('%s has no elicitation: never asks', async (version) => {
    let asked = 0;
    const s = await session({
      version,
      capabilities: { elicitation: { form: {}, url: {} } },
      operator: true,
      handler: async () => {
        asked++;
        return { action: 'accept', content: { option: 'approve' } };
      },
    });
    try {
      const result = await ask(s.client, 1);
      expect(result.structuredContent).toMatchObject({ status: 'pending' });
      expect(asked).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('sends no cancellation after the person answered, and a later decision cannot override it', async () => {
    const s = await session({
      version: '2025-11-25',
      capabilities: { elicitation: {} },
      operator: true,
      handler: async () => ({ action: 'accept', content: { option: 'reject', reason: 'not today' } }),
    });
    try {
      const result = await ask(s.client);
      expect(result.structuredContent).toMatchObject({ status: 'denied', reasonSource: 'person' });
      await settle();
      expect(methodsOf(s.seen, 'notifications/cancelled')).toEqual([]);
      const late = await decide(result.structuredContent.gateId, 'approve');
      expect(late.status).toBe(409);
      const view = await server.call(
        server.test.tokens.admin,
        'GET',
        `/v1/gates/${result.structuredContent.gateId}`,
      );
      expect(view.body.gate.decision).toMatchObject({
        option: 'reject',
        decidedBy: server.test.ids.developerId,
      });
    } finally {
      await s.close();
    }
  });

  it('ends an open form exactly once when the gate is decided elsewhere', async () => {
    let elicitationId: string | number | null = null;
    let finish: () => void = () => {};
    const toolDone = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const s = await session({
      version: '2025-11-25',
      capabilities: { elicitation: {} },
      operator: true,
      handler: async (request, extra) => {
        elicitationId = extra.requestId;
        const gateId = /Gate (gate_\S+)/.exec(request.params.message)?.[1] ?? '';
        await decide(gateId, 'approve');
        // The person never answers; the client drops the form when the server cancels it.
        await toolDone;
        return { action: 'cancel' };
      },
    });
    try {
      const result = await ask(s.client);
      finish();
      expect(result.structuredContent).toMatchObject({
        status: 'approved',
        decidedBy: server.test.ids.adminId,
      });
      await settle();
      const cancelled = methodsOf(s.seen, 'notifications/cancelled');
      expect(cancelled.map((message) => message.params.requestId)).toEqual([elicitationId]);
    } finally {
      finish();
      await s.close();
    }
  });

  it('URL mode sends the person to the gate page and reports completion once the gate is decided', async () => {
    const asked: Json[] = [];
    let opened: (gateId: string) => void = () => {};
    const page = new Promise<string>((resolve) => {
      opened = resolve;
    });
    const s = await session({
      version: '2025-11-25',
      capabilities: { elicitation: { url: {} } },
      operator: false,
      handler: async (request) => {
        asked.push(request.params);
        opened(String(request.params.message.match(/gate (gate_[^,]+),/)?.[1]));
        return { action: 'accept' };
      },
    });
    try {
      const pending = ask(s.client);
      const gateId = await page;
      expect((await decide(gateId, 'approve')).status).toBe(200);
      const result = await pending;
      expect(result.structuredContent).toMatchObject({ status: 'approved', gateId });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ mode: 'url', url: `${PAGES}/gates/${gateId}` });
      await settle();
      const complete = methodsOf(s.seen, 'notifications/elicitation/complete');
      expect(complete.map((message) => message.params)).toEqual([{ elicitationId: asked[0].elicitationId }]);
      expect(methodsOf(s.seen, 'notifications/cancelled')).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('never uses URL mode with a version before 2025-11-25, nor reports completion for a declined page', async () => {
    let asked = 0;
    const old = await session({
      version: '2025-06-18',
      capabilities: { elicitation: { url: {} } },
      operator: false,
      handler: async () => {
        asked++;
        return { action: 'accept' };
      },
    });
    try {
      expect((await ask(old.client, 1)).structuredContent).toMatchObject({ status: 'pending' });
      expect(asked).toBe(0);
    } finally {
      await old.close();
    }
    const declined = await session({
      version: '2025-11-25',
      capabilities: { elicitation: { url: {} } },
      operator: false,
      handler: async () => ({ action: 'decline' }),
    });
    try {
      const result = await ask(declined.client, 1);
      expect(result.structuredContent).toMatchObject({ status: 'pending' });
      await decide(result.structuredContent.gateId, 'approve');
      await callTool(declined.client, 'gatehouse_wait_for_decision', {
        gateId: result.structuredContent.gateId,
      });
      expect(methodsOf(declined.seen, 'notifications/elicitation/complete')).toEqual([]);
    } finally {
      await declined.close();
    }
  });
});
