import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock, Role } from 'gatehouse-hitl-core';
import { createSqliteStore, type ExecutedStatement, type Store } from 'gatehouse-hitl-store';
import { loadSqliteDriver, startTestPostgres, type TestPostgres } from 'gatehouse-hitl-store/testing';
import pg from 'pg';
import { buildApp } from '../app.js';
import { generateToken, hashPassword, hashToken } from '../auth/secrets.js';
import { loadConfig, type ServerConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { createInProcessBus } from '../events/bus.js';
import type { McpEndpoints } from '../mcp-endpoints.js';
import type { Services } from '../services/index.js';
import type { NotificationChannelDefinition } from '../services/notifications/channel.js';
import type { TelemetryOptions } from '../telemetry/telemetry.js';

/** The password every person created by `createTestApp` has. */
export const TEST_PASSWORD = 'correct horse battery staple';

export type TestDialect = 'sqlite' | 'postgres';

export interface TestAppOptions<C extends Clock> {
  dialect: TestDialect;
  /** Defaults to the system clock; pass core's createFakeClock() where time matters. */
  clock?: C;
  /** Config overrides on top of the test defaults. */
  config?: Partial<ServerConfig>;
  /** Serve a built web app from this folder. */
  uiDir?: string;
  /** Hears of every statement the store runs (statement budgets). */
  onStatement?: (statement: ExecutedStatement) => void;
  /** Turns on `POST /v1/host/login-link` with this secret, as `gatehouse serve` does. */
  hostSecret?: string;
  /** MCP endpoints to mount at `/mcp` and `/mcp/gateway` (the MCP package's tests pass its own). */
  mcp?: McpEndpoints;
  /** The channels notices go out on, in place of the server's own (a test adds its fixture channel). */
  notificationChannels?: readonly NotificationChannelDefinition[];
  /** Traces and metrics to these exporters (an in-memory span exporter, a metric reader); every node gets them. */
  telemetry?: TelemetryOptions;
}

export interface TestTokens {
  admin: string;
  techLead: string;
  developer: string;
  viewer: string;
  agent: string;
  otherAgent: string;
}

export interface TestIds {
  agentId: string;
  otherAgentId: string;
  adminId: string;
  techLeadId: string;
  developerId: string;
  viewerId: string;
}

/** An app on a fresh database with one person of each role and two agents, each with a bearer token. */
export interface TestApp<C extends Clock> {
  app: FastifyInstance;
  ctx: AppContext;
  services: Services;
  store: Store;
  clock: C;
  config: ServerConfig;
  tokens: TestTokens;
  ids: TestIds;
  /** Raw SQL on the test's database, on a connection of its own: how tests tamper as the database's owner could. */
  executeSql(statements: string): Promise<void>;
  /** Another node on the same Postgres database (its own store and bus), closed with this app. */
  secondNode(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** `{ authorization: 'Bearer …' }` for `app.inject({ headers })`. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

const systemClock: Clock = { now: () => Date.now() };

/** Tests open gates in floods on purpose; a test of the rate limits sets its own. */
const TEST_DEFAULTS: Partial<ServerConfig> = {
  port: 0,
  checkStreamEvents: true,
  logLevel: 'silent',
  rateLimits: { agent: { perSecond: 0, burst: 1 }, token: { perSecond: 0, burst: 1 } },
};

let passwordHash: Promise<string> | null = null;

function testPasswordHash(): Promise<string> {
  passwordHash = passwordHash ?? hashPassword(TEST_PASSWORD);
  return passwordHash;
}

async function openStore(
  dialect: TestDialect,
  clock: Clock,
  dir: string,
  onStatement: TestAppOptions<Clock>['onStatement'],
): Promise<{
  store: Store;
  execute(statements: string): Promise<void>;
  /** Another store on the same database; null on SQLite, whose file has one writer. */
  openAnother: (() => Promise<Store>) | null;
  stop(): Promise<void>;
}> {
  if (dialect === 'sqlite') {
    const file = join(dir, 'gatehouse.db');
    const store = await createSqliteStore({ file, clock, ...(onStatement ? { onStatement } : {}) });
    return {
      store,
      execute: async (statements) => executeSqlite(file, statements),
      openAnother: null,
      stop: async () => {},
    };
  }
  const postgres = await startTestPostgres({ clock, ...(onStatement ? { onStatement } : {}) });
  return {
    store: postgres.store,
    execute: (statements) => executePostgres(postgres, statements),
    openAnother: () => postgres.openStore({ clock }),
    stop: () => postgres.close(),
  };
}

function executeSqlite(file: string, statements: string): void {
  const raw = new (loadSqliteDriver().driver)(file);
  try {
    raw.exec(statements);
  } finally {
    raw.close();
  }
}

/** `set local` so a shared in-process session is left as it was. */
async function executePostgres(target: TestPostgres, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query(`begin; set local search_path to "${target.schema}"; ${statements}; commit`);
  } finally {
    await client.end();
  }
}

/** A new session token for an existing person, created through the store; it does not expire. */
export async function issueTestSession(store: Store, userId: string, now: number): Promise<string> {
  const token = generateToken('ghs');
  await store.transaction((tx) =>
    tx.insertToken({
      tokenHash: hashToken(token),
      kind: 'session',
      subjectId: userId,
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    }),
  );
  return token;
}

/** An agent token that was revoked, for testing that revoked credentials are refused. */
export async function issueRevokedAgentToken(store: Store, agentId: string, now: number): Promise<string> {
  const token = generateToken('gha');
  await store.transaction((tx) =>
    tx.insertToken({
      tokenHash: hashToken(token),
      kind: 'agent',
      subjectId: agentId,
      createdAt: now,
      expiresAt: null,
      revokedAt: now,
    }),
  );
  return token;
}

/** Creates a person with a session token that does not expire, so a fake clock can run ahead freely. */
async function seedUser(store: Store, id: string, role: Role, now: number): Promise<string> {
  const token = generateToken('ghs');
  const hash = await testPasswordHash();
  await store.transaction(async (tx) => {
    await tx.insertUser({
      id,
      name: id.replace(/^user_/, ''),
      role,
      passwordHash: hash,
      disabled: false,
      createdAt: now,
    });
    await tx.insertToken({
      tokenHash: hashToken(token),
      kind: 'session',
      subjectId: id,
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    });
  });
  return token;
}

async function seedAgent(store: Store, id: string, now: number): Promise<string> {
  const token = generateToken('gha');
  await store.transaction(async (tx) => {
    await tx.insertAgent({
      id,
      name: id.replace(/^agent_/, ''),
      profile: 'coder',
      autonomy: null,
      createdAt: now,
    });
    await tx.insertToken({
      tokenHash: hashToken(token),
      kind: 'agent',
      subjectId: id,
      createdAt: now,
      expiresAt: null,
      revokedAt: null,
    });
  });
  return token;
}

async function seed(store: Store, now: number): Promise<{ tokens: TestTokens; ids: TestIds }> {
  const ids: TestIds = {
    agentId: 'agent_alpha',
    otherAgentId: 'agent_beta',
    adminId: 'user_admin',
    techLeadId: 'user_lead',
    developerId: 'user_dev',
    viewerId: 'user_viewer',
  };
  const tokens: TestTokens = {
    admin: await seedUser(store, ids.adminId, 'admin', now),
    techLead: await seedUser(store, ids.techLeadId, 'tech_lead', now),
    developer: await seedUser(store, ids.developerId, 'developer', now),
    viewer: await seedUser(store, ids.viewerId, 'viewer', now),
    agent: await seedAgent(store, ids.agentId, now),
    otherAgent: await seedAgent(store, ids.otherAgentId, now),
  };
  return { tokens, ids };
}

/**
 * Builds the app on a fresh SQLite file (in a temp dir) or a fresh Postgres database, with
 * people named admin, lead, dev and viewer (password TEST_PASSWORD) and agents alpha and beta.
 */
export async function createTestApp<C extends Clock = Clock>(
  options: TestAppOptions<C>,
): Promise<TestApp<C>> {
  const clock = (options.clock ?? systemClock) as C;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const config = loadConfig({}, { ...TEST_DEFAULTS, dataDir: dir, ...options.config });
  const { store, execute, openAnother, stop } = await openStore(
    options.dialect,
    clock,
    dir,
    options.onStatement,
  );
  const bus = createInProcessBus();
  const mcp = options.mcp ?? null;
  const channels =
    options.notificationChannels === undefined ? {} : { notificationChannels: options.notificationChannels };
  const telemetry = options.telemetry === undefined ? {} : { telemetry: options.telemetry };
  const app = await buildApp(
    {
      store,
      bus,
      clock,
      config,
      uiDir: options.uiDir ?? null,
      mcp,
      ...channels,
      ...(options.hostSecret === undefined ? {} : { hostSecret: options.hostSecret }),
    },
    telemetry,
  );
  await app.ready();
  const { tokens, ids } = await seed(store, clock.now());
  const otherNodes: (() => Promise<void>)[] = [];
  let closed = false;
  return {
    app,
    ctx: app.gatehouse.context,
    services: app.gatehouse.services,
    store,
    clock,
    config,
    tokens,
    ids,
    executeSql: execute,
    async secondNode() {
      if (openAnother === null)
        throw new Error('a second node shares a Postgres database, not a SQLite file');
      const otherStore = await openAnother();
      const otherBus = createInProcessBus();
      const other = await buildApp(
        {
          store: otherStore,
          bus: otherBus,
          clock,
          config,
          uiDir: null,
          mcp,
          ...channels,
        },
        telemetry,
      );
      await other.ready();
      otherNodes.push(async () => {
        await other.close();
        await otherBus.close();
        await otherStore.close().catch(() => {});
      });
      return other;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const closeNode of otherNodes) await closeNode();
      await app.close();
      await bus.close();
      await store.close().catch(() => {});
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
