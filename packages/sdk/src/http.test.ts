import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isGatehouseApiError } from './errors.js';
import { Transport } from './http.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Server[] = [];

async function listen(handler: Handler, port = 0): Promise<number> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => handler(request, body, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function transport(port: number, maxElapsedMs = Infinity): Transport {
  return new Transport({
    url: `http://127.0.0.1:${port}/`,
    token: 'gha_test',
    fetch: globalThis.fetch,
    backoff: { initialDelayMs: 10, maxDelayMs: 50, maxElapsedMs },
  });
}

const unavailable = { error: { code: 'SERVICE_UNAVAILABLE', message: 'database down', details: {} } };

describe('Transport', () => {
  it('sends the same keyed request again through 503s and a refused connection until it succeeds', async () => {
    const port = await listen(() => {});
    await close(servers.pop() as Server);
    const seen: { key: string | undefined; body: string; auth: string | undefined }[] = [];
    const restarted = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await listen((request, body, response) => {
        seen.push({
          key: request.headers['idempotency-key'] as string,
          body,
          auth: request.headers.authorization,
        });
        if (seen.length < 3) send(response, 503, unavailable);
        else send(response, 200, { ok: true });
      }, port);
    })();
    const answer = await transport(port).json({
      method: 'POST',
      path: '/v1/gates',
      body: { tool: 't', args: {} },
      headers: { 'idempotency-key': 'key-1' },
      retry: 'always',
    });
    await restarted;
    expect(answer).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request).toEqual({ key: 'key-1', body: '{"tool":"t","args":{}}', auth: 'Bearer gha_test' });
    }
  });

  it('rebuilds a refusal with its code at once, without retrying', async () => {
    let calls = 0;
    const port = await listen((_request, _body, response) => {
      calls++;
      send(response, 403, {
        error: { code: 'FORBIDDEN', message: 'agents cannot decide', details: { x: 1 } },
      });
    });
    const error = await transport(port)
      .json({ method: 'POST', path: '/v1/gates/g/decide', body: {}, retry: 'always' })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'FORBIDDEN')).toBe(true);
    expect(error).toMatchObject({ status: 403, details: { x: 1 } });
    expect(calls).toBe(1);
  });

  it('refuses at once a success that carries no Gatehouse answer, from another server on its address', async () => {
    let calls = 0;
    const port = await listen((_request, _body, response) => {
      calls++;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(calls === 1 ? '' : 'ok');
    });
    for (const body of ['an empty body', 'a body that is not JSON']) {
      const error = await transport(port)
        .json({ method: 'GET', path: '/v1/gates/g/wait', retry: 'always' })
        .catch((e: unknown) => e);
      expect(isGatehouseApiError(error, 'INTERNAL')).toBe(true);
      expect(error).toMatchObject({ status: 200, message: `the server answered 200 with ${body}` });
    }
    expect(calls).toBe(2);
  });

  it('does not resend a call that is not idempotent after the connection broke mid-request', async () => {
    let calls = 0;
    const port = await listen((request) => {
      calls++;
      request.socket.destroy();
    });
    const error = await transport(port)
      .json({ method: 'POST', path: '/v1/runs', body: {}, retry: 'safe' })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(error).toMatchObject({ status: 0 });
    expect(calls).toBe(1);
  });

  it('retries a paused run when told to, and stops retrying a bug after a few attempts', async () => {
    let calls = 0;
    const port = await listen((_request, _body, response) => {
      calls++;
      if (calls <= 2)
        send(response, 409, {
          error: { code: 'RUN_NOT_ACTIVE', message: 'paused', details: { status: 'paused' } },
        });
      else send(response, 500, { error: { code: 'INTERNAL', message: 'internal error', details: {} } });
    });
    const error = await transport(port)
      .json({
        method: 'POST',
        path: '/v1/gates',
        body: {},
        retry: 'always',
        retryWhen: (e) => e.code === 'RUN_NOT_ACTIVE' && e.details.status === 'paused',
      })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'INTERNAL')).toBe(true);
    expect(calls).toBe(2 + 4);
  });

  it('gives up once the retry budget is spent', async () => {
    const port = await listen((_request, _body, response) => send(response, 503, unavailable));
    const started = Date.now();
    const error = await transport(port, 200)
      .json({ method: 'GET', path: '/v1/gates', retry: 'always' })
      .catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops at once when the caller aborts', async () => {
    const port = await listen(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(
      transport(port).json({
        method: 'GET',
        path: '/v1/gates/g/wait',
        retry: 'always',
        signal: controller.signal,
      }),
    ).rejects.toThrow('caller gave up');
  });

  it('treats an attempt that outlives its timeout as lost and tries again', async () => {
    let calls = 0;
    const port = await listen((_request, _body, response) => {
      calls++;
      if (calls > 1) send(response, 200, { ok: calls });
    });
    const answer = await transport(port).json({
      method: 'GET',
      path: '/x',
      retry: 'always',
      attemptTimeoutMs: 100,
    });
    expect(answer).toEqual({ ok: 2 });
  });
});
