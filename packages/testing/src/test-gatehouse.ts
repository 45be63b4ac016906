import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AutonomyLevel, createFakeClock, type Role } from 'gatehouse-hitl-core';
import {
  agentRoutes,
  authRoutes,
  type DecideBody,
  type GateDocument,
  GatehouseApiError,
  gateActionRoutes,
  gateRoutes,
  policyRoutes,
} from 'gatehouse-hitl-protocol';
import { buildApp, createInProcessBus, loadConfig, type ServerConfig } from 'gatehouse-hitl-server';
import { createSqliteStore } from 'gatehouse-hitl-store';
import { type ApiCall, apiCaller } from './api.js';
import { type ReviewScript, runScriptedReviewer, type ScriptedReviewer } from './scripted-reviewer.js';

export interface TestGatehouseOptions {
  /** Where the manual clock starts (epoch ms). @default 2026-01-01T00:00:00Z */
  startAt?: number;
  /** A policy (YAML or JSON text) to activate before the test starts. */
  policy?: string;
  /** Server settings on top of the test defaults (no rate limits, silent logs, an ephemeral port). */
  config?: Partial<ServerConfig>;
  /** How often scripted reviewers look for pending gates, in real milliseconds. @default 10 */
  reviewerPollMs?: number;
}

export interface TestPerson {
  id: string;
  name: string;
  role: Role;
  /** A session token; renewed by the environment when the clock moves past its end. */
  token(): Promise<string>;
}

export interface TestAgent {
  id: string;
  name: string;
  /** The bearer token the agent under test sends (agent tokens do not expire). */
  token: string;
}

/** A real Gatehouse on 127.0.0.1 and SQLite in a temporary folder, driven by a manual clock. */
export interface TestGatehouse {
  /** The base URL to give the agent under test. */
  readonly url: string;
  /** The first admin, who creates the others. */
  readonly admin: TestPerson;
  /** Milliseconds since the epoch on the server's clock. */
  now(): number;
  /** Moves the clock on and fires every timeout that fell due (deny, escalate, proceed). */
  advance(ms: number): Promise<void>;
  /** Registers an agent and returns its token. @default autonomy: the profile's level */
  agent(name: string, options?: { autonomy?: AutonomyLevel; profile?: string }): Promise<TestAgent>;
  /** Creates a person with `role` (a password is set and kept by the environment). */
  person(name: string, role: Role): Promise<TestPerson>;
  /** A person (created with `role`, default developer) who answers pending gates as the script says. */
  reviewer(name: string, script: ReviewScript, options?: { role?: Role }): Promise<ScriptedReviewer>;
  /** Replaces the active policy (YAML or JSON text), as an admin would. */
  setPolicy(source: string): Promise<void>;
  /** Waits (in real time, up to `timeoutMs`) for a pending gate the predicate accepts. */
  pendingGate(predicate?: (gate: GateDocument) => boolean, timeoutMs?: number): Promise<GateDocument>;
  /** Decides a gate as `person` (default: a developer the environment keeps for this). */
  decide(gateId: string, body: DecideBody, person?: TestPerson): Promise<void>;
  /** A typed call of any route in the protocol's table. */
  readonly api: ApiCall;
  /** Stops the reviewers and the server and removes the temporary folder. */
  close(): Promise<void>;
}

const PASSWORD_LENGTH = 24;
const TEST_DEFAULTS: Partial<ServerConfig> = {
  host: '127.0.0.1',
  port: 0,
  logLevel: 'silent',
  checkStreamEvents: true,
  rateLimits: { agent: { perSecond: 0, burst: 1 }, token: { perSecond: 0, burst: 1 } },
};

function randomPassword(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(PASSWORD_LENGTH)), (byte) =>
    (byte % 36).toString(36),
  ).join('');
}

/** Starts a Gatehouse for one test (or one file); close it when done. */
export async function startTestGatehouse(options: TestGatehouseOptions = {}): Promise<TestGatehouse> {
  const clock = createFakeClock(options.startAt);
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-testing-'));
  const config = loadConfig({}, { ...TEST_DEFAULTS, dataDir: dir, ...options.config });
  const store = await createSqliteStore({ file: join(dir, 'gatehouse.db'), clock });
  const app = await buildApp({ store, bus: createInProcessBus(), clock, config, uiDir: null });
  await app.listen({ host: config.host, port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { services } = app.gatehouse;
  const api = apiCaller(url);
  const reviewers: ScriptedReviewer[] = [];

  const signIn = (name: string, password: string) => api('', authRoutes.login, { body: { name, password } });

  function sessionOf(name: string, password: string): () => Promise<string> {
    let session: { token: string; expiresAt: number } | null = null;
    return async () => {
      if (session === null || session.expiresAt <= clock.now()) session = await signIn(name, password);
      return session.token;
    };
  }

  const adminPassword = randomPassword();
  const first = await services.users.create('system', {
    name: 'admin',
    password: adminPassword,
    role: 'admin',
  });
  const admin: TestPerson = {
    id: first.id,
    name: 'admin',
    role: 'admin',
    token: sessionOf('admin', adminPassword),
  };

  async function person(name: string, role: Role): Promise<TestPerson> {
    const password = randomPassword();
    const user = await services.users.create(admin.id, { name, password, role });
    return { id: user.id, name, role, token: sessionOf(name, password) };
  }

  let defaultDecider: TestPerson | null = null;

  async function pendingFor(person: TestPerson): Promise<GateDocument[]> {
    const page = await api(await person.token(), gateRoutes.list, {
      query: { status: 'pending', limit: 100 },
    });
    return page.items;
  }

  async function decideAs(person: TestPerson, gateId: string, body: DecideBody): Promise<void> {
    await api(await person.token(), gateActionRoutes.decide, { params: { id: gateId }, body });
  }

  const environment: TestGatehouse = {
    url,
    admin,
    api,
    now: () => clock.now(),
    async advance(ms) {
      clock.advance(ms);
      await services.timeouts.sweepOnce();
    },
    async agent(name, agentOptions = {}) {
      const created = await api(await admin.token(), agentRoutes.create, {
        body: {
          name,
          ...(agentOptions.profile === undefined ? {} : { profile: agentOptions.profile }),
          ...(agentOptions.autonomy === undefined ? {} : { autonomy: agentOptions.autonomy }),
        },
      });
      return { id: created.agent.id, name, token: created.token };
    },
    person,
    async reviewer(name, script, reviewerOptions = {}) {
      const reviewer = await person(name, reviewerOptions.role ?? 'developer');
      const running = runScriptedReviewer({ name, userId: reviewer.id }, script, {
        pollMs: options.reviewerPollMs ?? 10,
        pending: () => pendingFor(reviewer),
        decide: async (gateId, body) => {
          try {
            await decideAs(reviewer, gateId, body);
            return null;
          } catch (error) {
            return error instanceof GatehouseApiError ? error.code : String(error);
          }
        },
      });
      reviewers.push(running);
      return running;
    },
    async setPolicy(source) {
      const format = source.trimStart().startsWith('{') ? 'json' : 'yaml';
      await api(await admin.token(), policyRoutes.replace, { body: { source, format } });
    },
    async pendingGate(predicate = () => true, timeoutMs = 10_000) {
      defaultDecider ??= await person('test-reviewer', 'developer');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await pendingFor(defaultDecider)).find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no pending gate matched within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async decide(gateId, body, as) {
      defaultDecider ??= await person('test-reviewer', 'developer');
      await decideAs(as ?? defaultDecider, gateId, body);
    },
    async close() {
      await Promise.all(reviewers.map((reviewer) => reviewer.stop()));
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.policy !== undefined) await environment.setPolicy(options.policy);
  return environment;
}
