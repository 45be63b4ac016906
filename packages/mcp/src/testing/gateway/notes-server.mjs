// An upstream MCP server for the gateway's tests, written with the official MCP SDK: a tool that
// records the arguments it receives, a resource clients may subscribe to, a resource template and a
// prompt, both with argument completions. Run as a script it serves stdio and appends each call's
// arguments as a JSON line to $NOTES_RECORD_FILE.
import { randomUUID } from 'node:crypto';
import { appendFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const TOPICS = ['milk', 'bread', 'mint'];

/** Builds the notes server; `record` receives the arguments of every write_note call. */
export function createNotesServer(record) {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'write_note',
    {
      title: 'Write a note',
      description: 'Saves a note with a title and a body',
      inputSchema: { title: z.string(), body: z.string().optional() },
      annotations: { destructiveHint: false },
    },
    async (args) => {
      record(args);
      return { content: [{ type: 'text', text: `saved ${args.title}` }] };
    },
  );
  server.registerTool(
    'add_tool',
    {
      description: 'Adds a tool named by the argument (the tool list changes)',
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      server.registerTool(name, { description: 'added at run time' }, async () => ({
        content: [{ type: 'text', text: name }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
  server.registerResource(
    'readme',
    'notes://readme',
    { title: 'Read me', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'notes server readme' }] }),
  );
  // Subscriptions: touch_readme tells every subscriber of notes://readme that it changed.
  const subscribed = new Set();
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.registerTool(
    'touch_readme',
    { description: 'Changes the read-me (subscribers hear of it)', inputSchema: {} },
    async () => {
      if (subscribed.has('notes://readme'))
        await server.server.sendResourceUpdated({ uri: 'notes://readme' });
      return { content: [{ type: 'text', text: `touched; subscribed: ${[...subscribed].join(' ')}` }] };
    },
  );
  server.registerResource(
    'item',
    new ResourceTemplate('notes://items/{id}', {
      list: undefined,
      complete: { id: (value) => ['41', '42', '420'].filter((id) => id.startsWith(value)) },
    }),
    { title: 'A note', mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `note ${id}` }] }),
  );
  server.registerPrompt(
    'summarize',
    {
      description: 'Summarize the notes on a topic',
      argsSchema: { topic: completable(z.string(), (value) => TOPICS.filter((t) => t.startsWith(value))) },
    },
    ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize the notes about ${topic}.` } }],
    }),
  );
  return server;
}

/** Serves the notes server over Streamable HTTP on 127.0.0.1; resolves with its `/mcp` URL. */
export async function serveNotesHttp(record) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : JSON.parse(text);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await createNotesServer(record).connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.env.NOTES_RECORD_FILE;
  const server = createNotesServer((args) => {
    if (file) appendFileSync(file, `${JSON.stringify(args)}\n`);
  });
  await server.connect(new StdioServerTransport());
}
