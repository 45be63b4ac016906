import type { AddressInfo } from 'node:net';
import { type Clock, createFakeClock, type Role } from 'gatehouse-hitl-core';
import { generateToken, hashToken } from '../auth/secrets.js';
import { createHttpClient, type HttpClient } from './http-client.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

type FakeClock = ReturnType<typeof createFakeClock>;

/** A listening app whose clock the test moves by hand. */
export type FakeClockApp = ListeningApp<FakeClock>;

/** A test app listening on 127.0.0.1 with a keep-alive client for it. */
export interface ListeningApp<C extends Clock> {
  test: TestApp<C>;
  url: string;
  client: HttpClient;
  close(): Promise<void>;
}

/** `createTestApp` plus a real listener on an ephemeral port of 127.0.0.1. */
export async function startListeningApp<C extends Clock = Clock>(
  options: TestAppOptions<C>,
  client: { maxSockets?: number } = {},
): Promise<ListeningApp<C>> {
  const test = await createTestApp(options);
  try {
    await test.app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await test.close();
    throw error;
  }
  const { port } = test.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const http = createHttpClient(url, client);
  return {
    test,
    url,
    client: http,
    async close() {
      http.close();
      await test.close();
    },
  };
}

/** A listening app on `dialect` with a fake clock that tests move by hand; the sweeper stays out of the way. */
export function startFakeClockApp(
  dialect: TestAppOptions<FakeClock>['dialect'],
  config: TestAppOptions<FakeClock>['config'] = { sweepIntervalMs: 60_000 },
): Promise<FakeClockApp> {
  return startListeningApp({ dialect, clock: createFakeClock(), config });
}

/** A person created for a test, with a session token that does not expire. */
export interface TestPerson {
  id: string;
  role: Role;
  token: string;
}

/** Creates `roles.length` people (`user_<prefix><n>`) with session tokens in one transaction. */
export async function addTestPeople<C extends Clock>(
  test: Pick<TestApp<C>, 'store' | 'clock'>,
  prefix: string,
  roles: readonly Role[],
): Promise<TestPerson[]> {
  const now = test.clock.now();
  const people = roles.map((role, i) => ({ id: `user_${prefix}${i}`, role, token: generateToken('ghs') }));
  await test.store.transaction(async (tx) => {
    for (const person of people) {
      await tx.insertUser({
        id: person.id,
        name: person.id.replace(/^user_/, ''),
        role: person.role,
        passwordHash: null,
        disabled: false,
        createdAt: now,
      });
      await tx.insertToken({
        tokenHash: hashToken(person.token),
        kind: 'session',
        subjectId: person.id,
        createdAt: now,
        expiresAt: null,
        revokedAt: null,
      });
    }
  });
  return people;
}

/** An agent created for a test, with its API token. */
export interface TestAgent {
  id: string;
  token: string;
}

/** Creates `count` agents (`agent_<prefix><n>`) with tokens, in transactions of `batch`. */
export async function addTestAgents<C extends Clock>(
  test: TestApp<C>,
  prefix: string,
  count: number,
  batch = 250,
): Promise<TestAgent[]> {
  const now = test.clock.now();
  const agents = Array.from({ length: count }, (_, i) => ({
    id: `agent_${prefix}${i}`,
    token: generateToken('gha'),
  }));
  for (let start = 0; start < agents.length; start += batch) {
    const slice = agents.slice(start, start + batch);
    await test.store.transaction(async (tx) => {
      for (const agent of slice) {
        await tx.insertAgent({
          id: agent.id,
          name: agent.id.replace(/^agent_/, ''),
          profile: 'coder',
          autonomy: null,
          createdAt: now,
        });
        await tx.insertToken({
          tokenHash: hashToken(agent.token),
          kind: 'agent',
          subjectId: agent.id,
          createdAt: now,
          expiresAt: null,
          revokedAt: null,
        });
      }
    });
  }
  return agents;
}
