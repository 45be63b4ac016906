import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookHttp, OutOfTime, ServerRefused, Unreachable } from './hook-http.js';

describe('the hook HTTP client', () => {
  const servers: { close(): unknown }[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server: Server = createServer(handler);
    servers.push({ close: () => server.close() });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const signal = () => AbortSignal.timeout(5000);

  it('sends the token, the headers and a JSON body, under the base path', async () => {
    let seen: {
      method?: string | undefined;
      url?: string | undefined;
      headers: Record<string, unknown>;
      body: string;
    } | null = null;
    const url = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen = { method: request.method, url: request.url, headers: request.headers, body };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ ok: true, text: 'é✓' }));
      });
    });
    const http = createHookHttp(`${url}/gatehouse`, 'gha_token', signal());
    http.preconnect();
    const answer = await http.call('POST', '/v1/gates', {
      body: { args: { path: 'ü' } },
      headers: { 'idempotency-key': 'k-1' },
    });
    http.close();
    expect(answer).toEqual({ ok: true, text: 'é✓' });
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/gatehouse/v1/gates',
      headers: {
        authorization: 'Bearer gha_token',
        'idempotency-key': 'k-1',
        'content-type': 'application/json',
      },
      body: '{"args":{"path":"ü"}}',
    });
  });

  it('reads a chunked answer whose characters are split across chunks', async () => {
    const url = await serve((_request, response) => {
      const bytes = Buffer.from(JSON.stringify({ instructions: 'Ne supprime pas « build » — merci ✓' }));
      response.setHeader('content-type', 'application/json');
      const cut = bytes.indexOf(0xe2) + 1;
      response.write(bytes.subarray(0, cut));
      setTimeout(() => response.end(bytes.subarray(cut)), 10);
    });
    const answer = await createHookHttp(url, 'gha_t', signal()).call('GET', '/x');
    expect(answer).toEqual({ instructions: 'Ne supprime pas « build » — merci ✓' });
  });

  it('rebuilds the server’s error as ServerRefused with its code and details', async () => {
    const url = await serve((_request, response) => {
      response.statusCode = 409;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          error: { code: 'RUN_NOT_ACTIVE', message: 'paused', details: { status: 'paused' } },
        }),
      );
    });
    const error = await createHookHttp(url, 'gha_t', signal())
      .call('POST', '/v1/gates', { body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServerRefused);
    expect(error).toMatchObject({ status: 409, code: 'RUN_NOT_ACTIVE', details: { status: 'paused' } });
  });

  it('reports a refused connection as Unreachable, also on a connection opened early', async () => {
    const url = await serve((_request, response) => response.end('{}'));
    servers.pop()?.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const http = createHookHttp(url, 'gha_t', signal());
    http.preconnect();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(http.call('GET', '/v1/me')).rejects.toBeInstanceOf(Unreachable);
    await expect(createHookHttp(url, 'gha_t', signal()).call('GET', '/v1/me')).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });

  it('gives up with OutOfTime when the signal aborts before an answer', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    servers.push({
      close: () => {
        for (const socket of sockets) socket.destroy();
        silent.close();
      },
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const started = Date.now();
    await expect(
      createHookHttp(url, 'gha_t', AbortSignal.timeout(200)).call('GET', '/v1/me'),
    ).rejects.toBeInstanceOf(OutOfTime);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a token that would break the request line', async () => {
    const url = await serve((_request, response) => response.end('{}'));
    await expect(
      createHookHttp(url, 'gha_x\r\nX-Evil: 1', signal()).call('GET', '/v1/me'),
    ).rejects.toMatchObject({
      code: 'BAD_HEADER',
    });
  });
});
