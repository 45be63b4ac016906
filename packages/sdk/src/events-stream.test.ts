import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { isGatehouseApiError } from './errors.js';
import type { RunEvent } from './events.js';

let server: Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

async function serve(
  handler: (lastEventId: string | undefined, response: ServerResponse) => void,
): Promise<Gatehouse> {
  server = createServer((request, response) => handler(request.headers['last-event-id'] as string, response));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Gatehouse({
    url: `http://127.0.0.1:${port}`,
    token: 'gha_t',
    retry: { initialDelayMs: 10, maxDelayMs: 20 },
  });
}

const intervention = (id: number, kind: string, instruction: string | null = null) =>
  `id: ${id}\nevent: intervention\ndata: ${JSON.stringify({ kind, instruction, at: id })}\n\n`;

describe('interventions', () => {
  it('reconnects with Last-Event-ID after the stream drops and misses nothing', async () => {
    const asked: (string | undefined)[] = [];
    const gate = await serve((lastEventId, response) => {
      asked.push(lastEventId);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (lastEventId === undefined) {
        response.write(': hello\n\n');
        response.write(intervention(1, 'pause'));
        response.end(intervention(2, 'resume'));
      } else {
        response.write(intervention(Number(lastEventId) + 1, 'steer', 'write tests first'));
      }
    });
    const controller = new AbortController();
    const events: RunEvent[] = [];
    for await (const event of gate.interventions('run_1', { signal: controller.signal })) {
      events.push(event);
      if (events.length === 3) controller.abort();
    }
    expect(events.map((e) => [e.kind, e.instruction, e.eventId])).toEqual([
      ['pause', null, '1'],
      ['resume', null, '2'],
      ['steer', 'write tests first', '3'],
    ]);
    expect(asked).toEqual([undefined, '2']);
  });

  it('reconnects when the stream goes quiet (a dead connection)', async () => {
    let connections = 0;
    const gate = await serve((_id, response) => {
      connections++;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 1) response.write(': connected\n\n');
      else response.write(intervention(1, 'resume'));
    });
    const controller = new AbortController();
    for await (const event of gate.interventions('run_1', {
      signal: controller.signal,
      idleTimeoutMs: 150,
    })) {
      expect(event.kind).toBe('resume');
      controller.abort();
    }
    expect(connections).toBe(2);
  });

  it('ends with the refusal when the run may not be read', async () => {
    const gate = await serve((_id, response) => {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'not your run', details: {} } }));
    });
    const iterate = async () => {
      for await (const _ of gate.interventions('run_x')) break;
    };
    const error = await iterate().catch((e: unknown) => e);
    expect(isGatehouseApiError(error, 'FORBIDDEN')).toBe(true);
  });

  it('calls back for each intervention until unsubscribed', async () => {
    const gate = await serve((_id, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(intervention(1, 'stop'));
    });
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      const unsubscribe = gate.onIntervention('run_1', (event) => {
        seen.push(event.kind);
        unsubscribe();
        resolve();
      });
    });
    expect(seen).toEqual(['stop']);
  });
});
