import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, type Store } from 'gatehouse-hitl-store';
import { startTestPostgres } from 'gatehouse-hitl-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpClient,
  type HttpClient,
  type HttpResult,
  inPool,
  type Json,
  shuffled,
  sleep,
} from '../testing/http-client.js';
import { type ServerProcess, startServerProcess } from '../testing/server-process.js';
import type { TestDialect } from '../testing/test-app.js';

const GATES = 200;
const LATE_CREATES = 20;
const SWEEP_MS = 100;
const dialects: TestDialect[] = ['sqlite', 'postgres'];

const POLICY = `name: crash-restart
defaultAction: gate
rules:
  - id: reads
    priority: 100
    match: { tools: [read_file] }
    action: allow
    reason: Reads are fine.
  - id: steps-may-proceed
    priority: 100
    match: { tools: [step_proceed] }
    action: { gate: { timeoutSeconds: 1, timeoutAction: proceed, risk: low } }
    reason: Only a person's rule lets a gate proceed by itself.
`;

type Timer = 'none' | 'deny' | 'escalate' | 'proceed';
const TIMERS: Timer[] = ['none', 'deny', 'escalate', 'proceed'];
const TIMEOUT_KIND = { deny: 'gate.expired', escalate: 'gate.escalated', proceed: 'gate.auto_approved' };
const TIMED_OUT_STATUS = { deny: 'expired', escalate: 'pending', proceed: 'approved' };

interface Planned {
  key: string;
  timer: Timer;
  body: Record<string, unknown>;
}

type Op = { kind: 'decide'; gateId: string } | { kind: 'create'; planned: Planned };

/** Gate i: a quarter each without a timer and with a deny / escalate / proceed timer due in 2–6 s. */
function plan(i: number, prefix = 'gate'): Planned {
  const timer = TIMERS[i % TIMERS.length] as Timer;
  const tool = timer === 'proceed' ? 'step_proceed' : 'step';
  const body: Record<string, unknown> = { tool, args: { prefix, i } };
  if (timer !== 'none') Object.assign(body, { timeoutSeconds: 2 + (i % 5), timeoutAction: timer });
  return { key: `${prefix}-${i}`, timer, body };
}

interface Database {
  env: Record<string, string>;
  /** A store on the same database, opened once no server holds it. */
  open(): Promise<Store>;
  close(): Promise<void>;
}

async function openDatabase(dialect: TestDialect, dataDir: string): Promise<Database> {
  if (dialect === 'sqlite') {
    let store: Store | null = null;
    return {
      env: {},
      async open() {
        store = await createSqliteStore({ file: join(dataDir, 'gatehouse.db'), clock: { now: Date.now } });
        return store;
      },
      close: async () => store?.close(),
    };
  }
  const pg = await startTestPostgres();
  return {
    env: { GATEHOUSE_DATABASE_URL: pg.connectionString, GATEHOUSE_DATABASE_SCHEMA: pg.schema },
    open: async () => pg.store,
    close: () => pg.stop(),
  };
}

interface Actors {
  admin: string;
  agent: string;
  dev: string;
  devId: string;
}

/** Signs the admin in with the first-start link, sets the policy, adds an agent and a developer. */
async function setUp(api: HttpClient, loginToken: string | null): Promise<Actors> {
  const admin: string = (await api.call('POST', '/v1/auth/link', { body: { token: loginToken } })).body.token;
  const policy = await api.call('PUT', '/v1/policy', { token: admin, body: { source: POLICY } });
  expect(policy.status).toBe(200);
  const agent = await api.call('POST', '/v1/agents', { token: admin, body: { name: 'builder' } });
  const password = 'correct horse battery staple';
  const body = { name: 'dev', password, role: 'developer' };
  const devId: string = (await api.call('POST', '/v1/users', { token: admin, body })).body.user.id;
  const login = await api.call('POST', '/v1/auth/login', { body: { name: 'dev', password } });
  return { admin, agent: agent.body.token, dev: login.body.token, devId };
}

function send(api: HttpClient, actors: Actors, op: Op): Promise<HttpResult> {
  if (op.kind === 'decide') {
    return api.call('POST', `/v1/gates/${op.gateId}/decide`, {
      token: actors.dev,
      body: { option: 'approve' },
    });
  }
  const { key, body } = op.planned;
  return api.call('POST', '/v1/gates', { token: actors.agent, headers: { 'idempotency-key': key }, body });
}

/** Waits until the sweeper has fired a first timeout. */
async function untilTimersFire(api: HttpClient, admin: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const fired = await api.call('GET', '/v1/audit?kind=gate.expired&limit=1', { token: admin });
    if (fired.body.items.length > 0) return;
    await sleep(50);
  }
  throw new Error('no timeout fired within 15 s');
}

/** Every timeout event (expired, escalated, auto-approved) so far, once `expected` are there or after 15 s. */
async function timeoutEvents(api: HttpClient, admin: string, expected: number): Promise<Json[]> {
  for (let i = 0; ; i++) {
    const events: Json[] = [];
    for (const kind of Object.values(TIMEOUT_KIND)) {
      events.push(...(await api.all(`/v1/audit?kind=${kind}&limit=500`, admin)));
    }
    if (events.length >= expected || i >= 150) return events;
    await sleep(100);
  }
}

describe.each(dialects)('kill -9 with 200 pending gates and due timers on %s', (dialect) => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(dataDir: string, env: Record<string, string>, expectLink: boolean) {
    const server: ServerProcess = await startServerProcess({ dataDir, env, expectLink });
    const api = createHttpClient(server.url, { maxSockets: 32 });
    cleanup.push(
      () => server.kill(),
      () => api.close(),
    );
    return { server, api };
  }

  it('loses no gate, duplicates none, fires each timeout once and keeps every acknowledged decision', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const db = await openDatabase(dialect, dataDir);
    cleanup.push(() => db.close());
    const env = { ...db.env, GATEHOUSE_SWEEP_INTERVAL_MS: String(SWEEP_MS) };

    const first = await start(dataDir, env, true);
    const actors = await setUp(first.api, first.server.loginToken);
    const idOf = new Map<string, string>();
    const timerOf = new Map<string, Timer>();
    const record = (planned: Planned, answer: HttpResult) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      idOf.set(planned.key, answer.body.gateId);
      timerOf.set(answer.body.gateId, planned.timer);
    };

    // 200 gates, every one acknowledged.
    const planned = Array.from({ length: GATES }, (_, i) => plan(i));
    const opened = await inPool(planned, 16, (p) => send(first.api, actors, { kind: 'create', planned: p }));
    for (const [i, answer] of opened.entries()) record(planned[i] as Planned, answer);
    expect(new Set(idOf.values()).size).toBe(GATES);

    // Work that races the kill: approvals of untimed gates and of deny gates due in 6 s, and new gates.
    const ops: Op[] = shuffled([
      ...planned
        .filter((p, i) => (p.timer === 'none' && i % 8 === 0) || (p.timer === 'deny' && i % 5 === 4))
        .map((p): Op => ({ kind: 'decide', gateId: idOf.get(p.key) as string })),
      ...Array.from({ length: LATE_CREATES }, (_, i): Op => ({ kind: 'create', planned: plan(i, 'late') })),
    ]);

    // Once timeouts are firing: a third of the work answered, a third in a burst cut by kill -9.
    await untilTimersFire(first.api, actors.admin);
    const inFlight: Promise<HttpResult | null>[] = [];
    const third = Math.floor(ops.length / 3);
    for (const op of ops.slice(0, third)) {
      inFlight.push(send(first.api, actors, op).catch(() => null));
      await sleep(15);
    }
    for (const op of ops.slice(third, 2 * third))
      inFlight.push(send(first.api, actors, op).catch(() => null));
    await sleep(2);
    await first.server.kill();
    const beforeKill = await Promise.all(inFlight);

    // Restart on the same database: no second admin; what was not answered is sent again.
    const { server, api } = await start(dataDir, env, false);
    const people = await api.call('GET', '/v1/users', { token: actors.admin });
    expect(people.body.users).toHaveLength(2);
    const decidedByDev = new Set<string>();
    for (const [i, op] of ops.entries()) {
      const acknowledged = beforeKill[i] ?? null;
      const answer = acknowledged ?? (await send(api, actors, op));
      if (op.kind === 'create') {
        record(op.planned, answer);
        continue;
      }
      const error = answer.body?.error;
      // A decision that landed before the kill without an answer shows up as its own win.
      const won =
        answer.status === 200 ||
        (acknowledged === null &&
          error?.code === 'GATE_ALREADY_DECIDED' &&
          error.details.winner.decidedBy === actors.devId);
      if (won) decidedByDev.add(op.gateId);
      else expect(error?.code, JSON.stringify(answer.body)).toBe('GATE_EXPIRED');
    }
    // Retries of acknowledged creates after the restart get the same gate.
    for (const p of planned.slice(0, 8)) {
      const again = await send(api, actors, { kind: 'create', planned: p });
      expect(again.body.gateId).toBe(idOf.get(p.key));
    }

    // 0 lost, 0 duplicated.
    const total = GATES + LATE_CREATES;
    const gates: Json[] = await api.all('/v1/gates?limit=500', actors.admin);
    expect(gates).toHaveLength(total);
    expect(new Set(gates.map((g) => g.id))).toEqual(new Set(idOf.values()));
    const openedEvents: Json[] = await api.all('/v1/audit?kind=gate.opened&limit=500', actors.admin);
    expect(openedEvents.map((e) => e.subject).sort()).toEqual([...idOf.values()].sort());

    // Each due timeout fires exactly once, as its action says; a gate a person decided never times out.
    const due = [...timerOf].filter(([id, timer]) => timer !== 'none' && !decidedByDev.has(id));
    const events = await timeoutEvents(api, actors.admin, due.length);
    const fired = new Map<string, string[]>();
    for (const e of events) fired.set(e.subject, [...(fired.get(e.subject) ?? []), e.kind]);
    for (const gate of await api.all('/v1/gates?limit=500', actors.admin)) {
      const timer = timerOf.get(gate.id) as Timer;
      const kinds = fired.get(gate.id) ?? [];
      if (decidedByDev.has(gate.id)) {
        expect(gate).toMatchObject({ status: 'approved', decision: { decidedBy: actors.devId } });
        expect(kinds, gate.id).toEqual([]);
      } else if (timer === 'none') {
        expect(gate.status).toBe('pending');
        expect(kinds).toEqual([]);
      } else {
        expect(kinds, `${gate.id} (${timer})`).toEqual([TIMEOUT_KIND[timer]]);
        expect(gate.status).toBe(TIMED_OUT_STATUS[timer]);
        if (timer === 'escalate') expect(gate.minRole).toBe('tech_lead');
        else expect(gate.decision.decidedBy).toBe('system:timeout');
      }
    }
    const decided: Json[] = await api.all('/v1/audit?kind=gate.decided&limit=500', actors.admin);
    expect(decided.map((e) => e.subject).sort()).toEqual([...decidedByDev].sort());
    const verify = await api.call('GET', '/v1/audit/verify', { token: actors.admin });
    expect(verify.body).toMatchObject({ ok: true });

    // The rows themselves, read from the database once the server has stopped.
    expect(await server.stop()).toBe(0);
    const store = await db.open();
    expect(await store.read((tx) => tx.countGates({}))).toBe(total);
    expect(await store.verifyAuditChain()).toMatchObject({ ok: true });
  }, 90_000);
});
