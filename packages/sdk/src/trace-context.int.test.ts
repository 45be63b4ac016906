import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from 'gatehouse-hitl-server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';

const AGENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${AGENT_TRACE}-00f067aa0ba902b7-01`;

describe('the trace context an agent sends with a gate request', () => {
  let test: TestApp<{ now(): number }>;
  afterEach(async () => {
    await test?.close();
  });

  /** A server with tracing on (no exporter: the test reads what the gate keeps). */
  async function start(): Promise<string> {
    test = await createTestApp({ dialect: 'sqlite', telemetry: {} });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}`;
  }

  /** Asks for a gated write and returns the trace context the opened gate keeps, then lets it go. */
  async function keptTraceContext(gate: Gatehouse, extra: Record<string, unknown> = {}) {
    const controller = new AbortController();
    let opened: (id: string) => void = () => {};
    const gateId = new Promise<string>((resolve) => (opened = resolve));
    const asked = gate
      .request({
        tool: 'write_file',
        args: { path: 'src/app.ts', content: '' },
        signal: controller.signal,
        onGate: (id) => opened(id),
        ...extra,
      })
      .catch(() => null);
    const id = await gateId;
    controller.abort();
    await asked;
    const stored = await test.store.read((tx) => tx.getGateTraceContext(id));
    return stored === null ? null : (JSON.parse(stored) as { traceparent: string; tracestate?: string });
  }

  it('sends the per-call traceparent and tracestate, so the gate joins the agent’s trace', async () => {
    const gate = new Gatehouse({ url: await start(), token: test.tokens.agent });
    const kept = await keptTraceContext(gate, {
      traceContext: { traceparent: TRACEPARENT, tracestate: 'vendor=agent' },
    });
    expect(kept).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=agent' });
  });

  it('asks the client’s traceContext for each request when the call names none', async () => {
    const url = await start();
    const gate = new Gatehouse({
      url,
      token: test.tokens.agent,
      traceContext: () => ({ traceparent: TRACEPARENT }),
    });
    expect(await keptTraceContext(gate)).toEqual({ traceparent: TRACEPARENT });
  });

  it('sends none by default: the gate is then in the trace of the server’s own request span', async () => {
    const gate = new Gatehouse({ url: await start(), token: test.tokens.agent });
    const kept = await keptTraceContext(gate);
    expect(kept?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(kept?.traceparent).not.toContain(AGENT_TRACE);
  });
});
