import type { StreamEvent } from 'gatehouse-hitl-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseSink } from '../http/sse.js';
import { createStreamService } from '../services/streams/stream-service.js';
import { openTestGate, postGate } from '../testing/gates.js';
import { approveTestPlan, createRunViaApi, postIntervention } from '../testing/runs.js';
import { openEventStream, type TestEventStream, type TestSseMessage } from '../testing/sse-client.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];

const SHELL = { tool: 'shell', args: { command: 'rm -rf build' } };

const ofType = (type: string) => (message: TestSseMessage) => message.event === type;

describe.each(dialects)('event streams on %s', (dialect) => {
  let test: TestApp<{ now(): number }>;
  let base: string;
  const open: TestEventStream[] = [];

  beforeAll(async () => {
    test = await createTestApp({ dialect });
    base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(async () => {
    for (const stream of open) stream.close();
    await test?.close();
  });

  async function connect(path: string, token: string, headers: Record<string, string> = {}) {
    const stream = await openEventStream(`${base}${path}`, { ...bearer(token), ...headers });
    open.push(stream);
    return stream;
  }

  /** A run stream that has seen its greeting, so it is subscribed before the test acts. */
  async function runStream(runId: string, token = test.tokens.agent, headers: Record<string, string> = {}) {
    const stream = await connect(`/v1/runs/${runId}/events`, token, headers);
    expect(stream.status).toBe(200);
    await waitFor(() => stream.comments.includes('connected'));
    await waitFor(() => test.services.streams.openCount > 0);
    return stream;
  }

  async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > until) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('opens with the event-stream headers and a retry hint, and labels each event with its seq and type', async () => {
    const run = await createRunViaApi(test);
    const stream = await runStream(run.id);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toContain('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.retryMs).toBeGreaterThan(0);
    await postIntervention(test, run.id, { kind: 'pause' });
    const message = await stream.next(ofType('intervention'));
    expect(message.id).toBe(String(message.json.seq));
    expect(message.json).toMatchObject({ type: 'intervention', runId: run.id, data: { kind: 'pause' } });
    stream.close();
  });

  it("brings a person's decision to the agent streaming its run within milliseconds", async () => {
    const run = await createRunViaApi(test);
    await approveTestPlan(test, run.id);
    const gateId = await openTestGate(test, { runId: run.id, ...SHELL });
    const stream = await runStream(run.id);
    const started = performance.now();
    const decided = await fetch(`${base}/v1/gates/${gateId}/decide`, {
      method: 'POST',
      headers: { ...bearer(test.tokens.developer), 'content-type': 'application/json' },
      body: JSON.stringify({ option: 'approve' }),
    });
    expect(decided.status).toBe(200);
    const message = await stream.next(ofType('gate.decided'), 2000);
    const elapsed = performance.now() - started;
    expect(message.json).toMatchObject({ gateId, data: { outcome: 'approved' } });
    expect(elapsed).toBeLessThan(500);
    stream.close();
  });

  it('delivers a steer instruction on the run stream as stored, hidden characters as markers', async () => {
    const run = await createRunViaApi(test);
    const stream = await runStream(run.id);
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'Use the v2 API\u200b only.' });
    const message = await stream.next(ofType('intervention'));
    expect(message.json.data).toMatchObject({ kind: 'steer', instruction: 'Use the v2 API⟨U+200B⟩ only.' });
    stream.close();
  });

  it('resumes from Last-Event-ID with exactly the events it missed, in order', async () => {
    const run = await createRunViaApi(test);
    const first = await runStream(run.id);
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'one' });
    const seen = await first.next(ofType('intervention'));
    first.close();
    await waitFor(() => test.services.streams.openCount === 0);
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'two' });
    await postIntervention(test, run.id, { kind: 'steer', instruction: 'three' });
    const resumed = await runStream(run.id, test.tokens.agent, { 'last-event-id': seen.id as string });
    const missed = [await resumed.next(ofType('intervention')), await resumed.next(ofType('intervention'))];
    expect(missed.map((message) => message.json.data?.instruction)).toEqual(['two', 'three']);
    expect(Number(missed[0]?.id)).toBeGreaterThan(Number(seen.id));
    await expect(resumed.next(ofType('intervention'), 100)).rejects.toThrow();
    resumed.close();
  });

  it('replays history with ?after=0 and then goes live without gaps or duplicates', async () => {
    const run = await createRunViaApi(test);
    for (let i = 0; i < 5; i++)
      await postIntervention(test, run.id, { kind: 'steer', instruction: `before ${i}` });
    const stream = await connect(`/v1/runs/${run.id}/events?after=0`, test.tokens.viewer);
    const during = Array.from({ length: 5 }, (_, i) =>
      postIntervention(test, run.id, { kind: 'steer', instruction: `during ${i}` }),
    );
    await Promise.all(during);
    const stored = await test.store.listStreamEvents({ afterSeq: 0, runId: run.id });
    const received: TestSseMessage[] = [];
    for (let i = 0; i < stored.length; i++) received.push(await stream.next());
    expect(received.map((message) => Number(message.id))).toEqual(stored.map((event) => event.seq));
    await expect(stream.next(() => true, 100)).rejects.toThrow();
    stream.close();
  });

  it("answers another agent's run and an unknown run with 404, no credential with 401", async () => {
    const run = await createRunViaApi(test);
    expect((await connect(`/v1/runs/${run.id}/events`, test.tokens.otherAgent)).status).toBe(404);
    expect((await openEventStream(`${base}/v1/runs/${run.id}/events`)).status).toBe(401);
    expect((await connect('/v1/runs/run_missing/events', test.tokens.viewer)).status).toBe(404);
    expect(
      (await connect(`/v1/runs/${run.id}/events`, test.tokens.viewer, { 'last-event-id': 'abc' })).status,
    ).toBe(400);
  });

  it('gives reviewers an inbox stream of gate events and run status changes, and refuses agents', async () => {
    expect((await connect('/v1/inbox/events', test.tokens.agent)).status).toBe(403);
    const inbox = await connect('/v1/inbox/events', test.tokens.viewer);
    expect(inbox.status).toBe(200);
    await waitFor(() => inbox.comments.includes('connected'));
    // At review autonomy the run acts without a plan, so its first gate is the one below.
    const run = await createRunViaApi(
      test,
      { agentId: test.ids.agentId, autonomy: 'review' },
      test.tokens.techLead,
    );
    await postGate(test, { runId: run.id, tool: 'read_file', args: { path: 'x' } });
    const gateId = await openTestGate(test, { runId: run.id, ...SHELL });
    expect((await inbox.next(ofType('run.status'))).json).toMatchObject({
      runId: run.id,
      data: { status: 'running' },
    });
    expect((await inbox.next(ofType('gate.opened'))).json.gateId).toBe(gateId);
    await postIntervention(test, run.id, { kind: 'stop' });
    expect((await inbox.next(ofType('gate.cancelled'))).json.gateId).toBe(gateId);
    expect((await inbox.next(ofType('run.status'))).json.data).toMatchObject({ status: 'stopped' });
    await expect(inbox.next((message) => message.event.startsWith('request.'), 100)).rejects.toThrow();
    await expect(inbox.next(ofType('intervention'), 50)).rejects.toThrow();
    inbox.close();
  });
});

describe('stream service', () => {
  let test: TestApp<{ now(): number }>;
  beforeAll(async () => {
    test = await createTestApp({ dialect: 'sqlite' });
  });
  afterAll(async () => {
    await test?.close();
  });

  function fakeSink(): SseSink & { sent: StreamEvent[]; heartbeats: number } {
    let closed = false;
    const listeners: (() => void)[] = [];
    return {
      sent: [],
      heartbeats: 0,
      send(event) {
        this.sent.push(event);
      },
      heartbeat() {
        this.heartbeats += 1;
      },
      end() {
        closed = true;
        for (const listener of listeners.splice(0)) listener();
      },
      get closed() {
        return closed;
      },
      onClose(listener) {
        listeners.push(listener);
      },
    };
  }

  it('sends a heartbeat comment on every open stream, and ends them all on close', async () => {
    const streams = createStreamService(test.ctx, { heartbeatMs: 20 });
    const sinks = [fakeSink(), fakeSink()];
    for (const sink of sinks) await streams.follow({ runId: null, afterSeq: null, accept: () => true, sink });
    await new Promise((resolve) => setTimeout(resolve, 90));
    expect(sinks.every((sink) => sink.heartbeats >= 2)).toBe(true);
    expect(streams.openCount).toBe(2);
    streams.close();
    expect(sinks.every((sink) => sink.closed)).toBe(true);
    expect(streams.openCount).toBe(0);
    const late = fakeSink();
    await streams.follow({ runId: null, afterSeq: null, accept: () => true, sink: late });
    expect(late.closed).toBe(true);
  });

  it('ends open HTTP streams when the app closes', async () => {
    const other = await createTestApp({ dialect: 'sqlite' });
    const address = await other.app.listen({ host: '127.0.0.1', port: 0 });
    const stream = await openEventStream(`${address}/v1/inbox/events`, bearer(other.tokens.viewer));
    expect(stream.status).toBe(200);
    await other.close();
    await expect(
      Promise.race([stream.ended.then(() => 'ended'), new Promise((r) => setTimeout(r, 2000))]),
    ).resolves.toBe('ended');
  });
});
