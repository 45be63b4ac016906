// Child process: a bare Server-Sent-Events server on node:http. GET /events holds a stream open;
// POST /push writes its body as one event to every open stream.
import http from 'node:http';
import { serveParent } from './child.js';

const streams = new Set();

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/events') {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(':ok\n\n');
    streams.add(response);
    request.on('close', () => streams.delete(response));
    return;
  }
  if (request.method === 'POST' && request.url === '/push') {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const data = Buffer.concat(chunks).toString('utf8').replaceAll('\n', ' ');
      for (const stream of streams) stream.write(`data: ${data}\n\n`);
      response.writeHead(204).end();
    });
    return;
  }
  response.writeHead(404).end();
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 0;
server.requestTimeout = 0;
await new Promise((resolve) => server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, resolve));

serveParent(
  { url: `http://127.0.0.1:${server.address().port}` },
  {
    /** Streams open right now. */
    streams: async () => streams.size,
    close: async () => {
      for (const stream of streams) stream.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  },
);
