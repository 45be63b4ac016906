import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Gate, Role } from 'gatehouse-hitl-core';
import { Gatehouse } from 'gatehouse-hitl-sdk';
import {
  createHttpClient,
  GATEHOUSE_BIN,
  type HttpClient,
  type Json,
  type ServerProcess,
  startServerProcess,
} from 'gatehouse-hitl-server/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium, openContext, type PageOptions } from './browser.js';

/** The built web app `gatehouse serve` hands out (`npm run build` makes it). */
export const UI_DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** A person with a role, a password for the login form and a session for the API. */
export interface Person {
  id: string;
  name: string;
  role: Role;
  password: string;
  /** Session token (`ghs_…`): the API's bearer and the browser's `gatehouse_session` cookie. */
  token: string;
}

export interface E2eAgent {
  id: string;
  token: string;
  /** The agent's own client, as an agent builder would use it. */
  sdk: Gatehouse;
}

export interface E2e {
  readonly url: string;
  readonly server: ServerProcess;
  readonly http: HttpClient;
  readonly browser: Browser;
  /** The first admin, signed in by opening the first-start login link in the browser. */
  readonly admin: Person;
  /** The page that opened the login link (it stays signed in as the admin). */
  readonly adminPage: Page;
  readonly viewer: Person;
  readonly developer: Person;
  /** A second developer, for two reviewers racing on one gate. */
  readonly reviewer: Person;
  readonly techLead: Person;
  readonly agent: E2eAgent;
  /** A fresh browser context (own cookies) signed in as `person`; not navigated yet. */
  pageAs(person: Person, options?: PageOptions): Promise<Page>;
  /** A fresh, signed-out browser context. */
  anonymousPage(options?: PageOptions): Promise<Page>;
  /** Calls the API with a bearer token; never throws on a status. */
  api(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Json>;
  /** Sends the agent's request (`POST /v1/gates`); fails unless the policy opened a gate. */
  openGate(body: Record<string, unknown>): Promise<Gate>;
  /**
   * Gate 0: sends the run's plan (event planning_complete) as the agent and approves its intent gate
   * as the tech lead, so a run at partial, guided or dependent may implement.
   */
  approvePlan(runId: string): Promise<void>;
  /**
   * Restarts the server on its data dir and port with its clock `ms` further ahead (the test-only
   * GATEHOUSE_TEST_CLOCK_SKEW_MS), so sessions age without waiting; browsers keep their cookies.
   */
  advanceClock(ms: number): Promise<void>;
  /** Runs `gatehouse admin login-link --json` on the host as its operator would; the link's path and hash. */
  hostLoginLink(name?: string): Promise<string>;
  /** Uncaught errors and CSP violations of any page so far (each test must leave none). */
  readonly pageErrors: string[];
  close(): Promise<void>;
}

const PASSWORD = 'correct horse battery staple';
const SESSION_COOKIE = 'gatehouse_session';

async function createPerson(http: HttpClient, adminToken: string, name: string, role: Role): Promise<Person> {
  const created = await http.call('POST', '/v1/users', {
    token: adminToken,
    body: { name, password: PASSWORD, role },
  });
  if (created.status !== 201) throw new Error(`could not create ${name}: ${JSON.stringify(created.body)}`);
  const login = await http.call('POST', '/v1/auth/login', { body: { name, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`${name} could not log in: ${JSON.stringify(login.body)}`);
  return { id: created.body.user.id, name, role, password: PASSWORD, token: login.body.token };
}

async function createAgent(http: HttpClient, url: string, adminToken: string): Promise<E2eAgent> {
  const created = await http.call('POST', '/v1/agents', { token: adminToken, body: { name: 'build-bot' } });
  if (created.status !== 201) throw new Error(`could not create the agent: ${JSON.stringify(created.body)}`);
  const token: string = created.body.token;
  const sdk = new Gatehouse({ url, token, waitTimeoutMs: 10_000, retry: { maxElapsedMs: 30_000 } });
  return { id: created.body.agent.id, token, sdk };
}

/** Opens the first-start link like the admin would and reads the session the server set. */
async function adminThroughLink(
  browser: Browser,
  server: ServerProcess,
  track: (context: BrowserContext, page: Page) => void,
): Promise<{ page: Page; token: string }> {
  if (server.loginToken === null) throw new Error('the first start printed no login link');
  const { context, page } = await openContext(browser, server.url);
  track(context, page);
  await page.goto(`/login#token=${server.loginToken}`);
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  if (cookie === undefined) throw new Error('signing in with the link set no session cookie');
  return { page, token: cookie.value };
}

/** Tracks every browser context and collects what goes wrong in its pages. */
function pageWatch() {
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const track = (context: BrowserContext, page: Page) => {
    contexts.push(context);
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    // The server's strict CSP must never block the app itself.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        errors.push(`${page.url()}: ${message.text()}`);
    });
  };
  const closeAll = () => Promise.allSettled(contexts.map((context) => context.close()));
  return { track, errors, closeAll };
}

/** SIGTERM, then SIGKILL if the server has not exited after 10 s; this process only. */
async function stopServer(server: ServerProcess): Promise<void> {
  const timer = setTimeout(() => void server.kill(), 10_000);
  await server.stop();
  clearTimeout(timer);
}

async function createPeople(http: HttpClient, adminToken: string) {
  const [viewer, developer, reviewer, techLead] = await Promise.all([
    createPerson(http, adminToken, 'vera-viewer', 'viewer'),
    createPerson(http, adminToken, 'dana-developer', 'developer'),
    createPerson(http, adminToken, 'rob-reviewer', 'developer'),
    createPerson(http, adminToken, 'theo-lead', 'tech_lead'),
  ]);
  return { viewer, developer, reviewer, techLead };
}

/** Starts a real `gatehouse serve` with the built web app, its people and agent, and Chromium. */
/** What a test file may change about its server: more environment (an SMTP server, for one). */
export interface E2eOptions {
  env?: Record<string, string>;
}

export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  if (!existsSync(join(UI_DIST, 'index.html'))) {
    throw new Error(`${UI_DIST} holds no build: run \`npm run build\` first`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
  const watch = pageWatch();
  let server: ServerProcess | null = null;
  let browser: Browser | null = null;
  let http: HttpClient | null = null;
  const close = async () => {
    await watch.closeAll();
    await browser?.close().catch(() => undefined);
    http?.close();
    if (server !== null) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const env = { GATEHOUSE_UI_DIR: UI_DIST, GATEHOUSE_LOGIN_ATTEMPTS_PER_MINUTE: '1000', ...options.env };
  let skewMs = 0;
  const host: HostControls = {
    server: () => server as ServerProcess,
    async advanceClock(ms) {
      const running = server as ServerProcess;
      const port = Number(new URL(running.url).port);
      skewMs += ms;
      await stopServer(running);
      server = null;
      const skew = { GATEHOUSE_TEST_CLOCK_SKEW_MS: String(skewMs) };
      server = await startServerProcess({ dataDir, port, env: { ...env, ...skew } });
    },
    async hostLoginLink(name) {
      const args = [GATEHOUSE_BIN, 'admin', 'login-link', '--data-dir', dataDir, '--json'];
      // The operator's shell: none of this process's GATEHOUSE_ settings (a test database, say).
      const shell = Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !key.startsWith('GATEHOUSE_')),
      );
      const { stdout } = await run(process.execPath, name === undefined ? args : [...args, '--name', name], {
        env: shell,
      });
      const link = new URL((JSON.parse(stdout) as { url: string }).url);
      return link.pathname + link.hash;
    },
  };
  try {
    server = await startServerProcess({ dataDir, expectLink: true, env });
    http = createHttpClient(server.url, { maxSockets: 16 });
    browser = await launchChromium();
    const linked = await adminThroughLink(browser, server, watch.track);
    const me = await http.call('GET', '/v1/me', { token: linked.token });
    const admin: Person = { ...me.body.user, password: '', token: linked.token };
    const people = await createPeople(http, linked.token);
    const agent = await createAgent(http, server.url, linked.token);
    const parts = { server, http, browser, admin, adminPage: linked.page, ...people, agent };
    return e2eOf(parts, host, watch, close);
  } catch (error) {
    const output = server?.output() ?? '';
    await close();
    throw new Error(`the end-to-end setup failed: ${(error as Error).message}\n${output}`, { cause: error });
  }
}

type E2eParts = Pick<
  E2e,
  | 'server'
  | 'http'
  | 'browser'
  | 'admin'
  | 'adminPage'
  | 'viewer'
  | 'developer'
  | 'reviewer'
  | 'techLead'
  | 'agent'
>;

/** What the harness does on the server's host: restart it with a later clock, run the CLI there. */
interface HostControls {
  server(): ServerProcess;
  advanceClock(ms: number): Promise<void>;
  hostLoginLink(name?: string): Promise<string>;
}

const run = promisify(execFile);

function e2eOf(
  parts: E2eParts,
  host: HostControls,
  watch: ReturnType<typeof pageWatch>,
  close: () => Promise<void>,
): E2e {
  const { server, http, browser, agent, techLead } = parts;
  const openGate = async (body: Record<string, unknown>) => {
    const answer = await http.call('POST', '/v1/gates', { token: agent.token, body });
    if (answer.status !== 200 || answer.body.outcome !== 'gated') {
      throw new Error(`expected a gate, got ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body.gate as Gate;
  };
  const anonymousPage = async (options?: PageOptions) => {
    const { context, page } = await openContext(browser, server.url, options);
    watch.track(context, page);
    return page;
  };
  return {
    ...parts,
    // After advanceClock the server is a new process on the same port.
    get server() {
      return host.server();
    },
    advanceClock: host.advanceClock,
    hostLoginLink: host.hostLoginLink,
    url: server.url,
    pageErrors: watch.errors,
    anonymousPage,
    async pageAs(person, options) {
      const page = await anonymousPage(options);
      const cookie = { name: SESSION_COOKIE, value: person.token, url: server.url, httpOnly: true };
      await page.context().addCookies([{ ...cookie, sameSite: 'Strict' }]);
      return page;
    },
    async api(method, path, options = {}) {
      return (await http.call(method, path, options)).body;
    },
    openGate,
    async approvePlan(runId) {
      const gate = await openGate({ runId, event: 'planning_complete', operation: 'implement the plan' });
      const decided = await http.call('POST', `/v1/gates/${gate.id}/decide`, {
        token: techLead.token,
        body: { option: 'approve' },
      });
      if (decided.status !== 200)
        throw new Error(`the plan was not approved: ${JSON.stringify(decided.body)}`);
    },
    close,
  };
}

/**
 * One server and one browser for a test file: started before its first test, closed after the
 * last; a test that leaves an uncaught page error or a CSP violation fails.
 */
export function withE2e(options: E2eOptions = {}): () => E2e {
  let env: E2e | null = null;
  beforeAll(async () => {
    env = await startE2e(options);
  });
  afterEach(() => {
    const errors = env?.pageErrors.splice(0) ?? [];
    if (errors.length > 0) throw new Error(`errors in the page:\n${errors.join('\n')}`);
  });
  afterAll(async () => {
    await env?.close();
    env = null;
  });
  return () => {
    if (env === null) throw new Error('the end-to-end server runs only inside a test');
    return env;
  };
}
