import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithOwnSignal } from './own-signal-fetch.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

const routes: Record<string, Route> = {
  '/json': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  },
  '/empty': (_request, response) => {
    response.writeHead(204);
    response.end();
  },
  '/moved': (_request, response) => {
    response.writeHead(307, { location: '/json' });
    response.end('moved');
  },
  // Answers after five seconds, unless the caller hangs up first.
  '/slow': (_request, response) => {
    const timer = setTimeout(() => response.end('late'), 5_000);
    response.on('close', () => clearTimeout(timer));
  },
  // One event, then the stream stays open until the caller hangs up.
  '/events': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
  },
};

describe('fetchWithOwnSignal', () => {
  let server: Server;
  let base: string;
  const closed: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.on('close', () => closed.push(request.url ?? ''));
      (routes[request.url ?? ''] ?? routes['/json'])?.(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

  it('adds one listener in all to the shared signal, however many answers are read, cancelled or empty', async () => {
    const shared = new AbortController();
    const ownFetch = fetchWithOwnSignal();
    const kept: Response[] = [];
    for (let i = 0; i < 50; i++) {
      const json = await ownFetch(`${base}/json`, { signal: shared.signal });
      expect(await json.json()).toEqual({ ok: true });
      const text = await ownFetch(`${base}/json`, { method: 'POST', body: '{}', signal: shared.signal });
      expect(await text.text()).toBe('{"ok":true}');
      const cancelled = await ownFetch(`${base}/json`, { signal: shared.signal });
      await cancelled.body?.cancel();
      const empty = await ownFetch(`${base}/empty`, { signal: shared.signal });
      expect(empty.status).toBe(204);
      await expect(ownFetch('http://127.0.0.1:1/', { signal: shared.signal })).rejects.toThrow();
      // Held, so that no listener goes only because its request was collected.
      kept.push(json, text, cancelled, empty);
    }
    expect(kept).toHaveLength(200);
    expect(abortListeners(shared.signal)).toBe(1);
  });

  it('aborts a request in flight when the shared signal aborts', async () => {
    const shared = new AbortController();
    const pending = fetchWithOwnSignal()(`${base}/slow`, { signal: shared.signal });
    setTimeout(() => shared.abort(new Error('transport closed')), 50);
    await expect(pending).rejects.toThrow('transport closed');
    await expect.poll(() => closed.includes('/slow')).toBe(true);
  });

  it('cuts a streamed answer being read when the shared signal aborts', async () => {
    const shared = new AbortController();
    const response = await fetchWithOwnSignal()(`${base}/events`, { signal: shared.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    // Closing the transport while the stream is open must cut it.
    shared.abort(new Error('transport closed'));
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => closed.includes('/events')).toBe(true);
  });

  it('answers a redirect as it came, with its status, location and url', async () => {
    const shared = new AbortController();
    const response = await fetchWithOwnSignal()(`${base}/moved`, {
      redirect: 'manual',
      signal: shared.signal,
    });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('/json');
    expect(response.url).toBe(`${base}/moved`);
    expect(response.redirected).toBe(false);
    expect(await response.text()).toBe('moved');
  });

  it('refuses at once when the shared signal has already aborted, and passes a call without one through', async () => {
    const shared = new AbortController();
    shared.abort(new Error('transport closed'));
    await expect(fetchWithOwnSignal()(`${base}/json`, { signal: shared.signal })).rejects.toThrow(
      'transport closed',
    );
    expect(await (await fetchWithOwnSignal()(`${base}/json`)).json()).toEqual({ ok: true });
  });
});
