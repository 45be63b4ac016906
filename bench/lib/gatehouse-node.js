// Child process: one Gatehouse node (buildApp on SQLite or Postgres) on 127.0.0.1, with an admin, a
// developer, `people` tech leads and `agents` agents seeded through the store, each with a bearer token
// (stored as its SHA-256); `env` adds GATEHOUSE_* settings (an SMTP server, the checkpoint interval).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp, createInProcessBus, loadConfig } from '../../packages/server/dist/index.js';
import { createPostgresStore, createSqliteStore } from '../../packages/store/dist/index.js';
import { serveParent } from './child.js';

const options = JSON.parse(process.argv[2]);
const clock = { now: () => Date.now() };

function newToken(prefix) {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const record = { tokenHash: createHash('sha256').update(token).digest('hex'), createdAt: clock.now() };
  return { token, record: { ...record, expiresAt: null, revokedAt: null } };
}

async function seedPerson(store, id, role) {
  const { token, record } = newToken('ghs');
  await store.transaction(async (tx) => {
    const user = { id, name: id.slice(5), role, passwordHash: null, disabled: false, createdAt: clock.now() };
    await tx.insertUser(user);
    await tx.insertToken({ ...record, kind: 'session', subjectId: id });
  });
  return token;
}

async function seedAgents(store, count) {
  const tokens = [];
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
      id: `agent_bench${String(start + i).padStart(5, '0')}`,
      ...newToken('gha'),
    }));
    await store.transaction(async (tx) => {
      for (const { id, record } of batch) {
        await tx.insertAgent({
          id,
          name: id.slice(6),
          profile: 'coder',
          autonomy: null,
          createdAt: clock.now(),
        });
        await tx.insertToken({ ...record, kind: 'agent', subjectId: id });
      }
    });
    tokens.push(...batch.map(({ id, token }) => ({ id, token })));
  }
  return tokens;
}

async function seedPeople(store, count) {
  const people = [];
  for (let i = 0; i < count; i += 1) {
    const id = `user_bench_lead${String(i).padStart(3, '0')}`;
    people.push({ id, token: await seedPerson(store, id, 'tech_lead') });
  }
  return people;
}

function openStore() {
  if (options.dialect === 'postgres') {
    const { connectionString, schema } = options;
    return createPostgresStore({ connectionString, schema, clock });
  }
  return createSqliteStore({ file: join(options.dir, 'gatehouse.db'), clock });
}

const store = await openStore();
const bus = createInProcessBus();
// The load comes from a few bench agents on purpose: per-agent rate limits would measure the limiter.
const unlimited = { perSecond: 0, burst: 1 };
const config = loadConfig(options.env ?? {}, {
  dataDir: options.dir,
  host: '127.0.0.1',
  port: 0,
  logLevel: 'silent',
  rateLimits: { agent: unlimited, token: unlimited },
});
const app = await buildApp({ store, bus, clock, config });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const tokens = {
  admin: await seedPerson(store, 'user_bench_admin', 'admin'),
  developer: await seedPerson(store, 'user_bench_dev', 'developer'),
  agents: await seedAgents(store, options.agents ?? 1),
  people: await seedPeople(store, options.people ?? 0),
};

/**
 * Opens one gate per agent through the API in this process (`inject`, many at once so their commits
 * share batches): a quick set-up for the waiting-agents figure. Returns the gate ids, in agent order.
 */
async function openGates({ count, window = 500 }) {
  const ids = [];
  for (let start = 0; start < count; start += window) {
    const batch = tokens.agents.slice(start, Math.min(count, start + window));
    const answers = await Promise.all(
      batch.map(({ token }, i) =>
        app.inject({
          method: 'POST',
          url: '/v1/gates',
          headers: { authorization: `Bearer ${token}` },
          payload: { tool: 'write_file', args: { path: `src/file-${start + i}.ts` }, timeoutSeconds: 3600 },
        }),
      ),
    );
    for (const answer of answers) {
      const body = answer.json();
      if (answer.statusCode !== 200 || body.outcome !== 'gated') throw new Error(`open gate: ${answer.body}`);
      ids.push(body.gateId);
    }
  }
  return ids;
}

let loopDelay = null;

serveParent(
  { url: address, tokens, pragmas: store.pragmas?.() ?? null },
  {
    /** Starts sampling this node's event-loop delay (perf_hooks, 1 ms resolution). */
    startLoopDelay: async () => {
      loopDelay = monitorEventLoopDelay({ resolution: 1 });
      loopDelay.enable();
    },
    /** Stops sampling; the delay's p99 and max in milliseconds since startLoopDelay. */
    stopLoopDelay: async () => {
      loopDelay.disable();
      const figures = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
      loopDelay = null;
      return figures;
    },
    /** Notices not yet delivered (pending rows) and whether gate changes still wait to be routed. */
    notificationBacklog: async () => {
      const counts = await store.read((tx) => tx.countNotifications());
      const count = (status) =>
        counts.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0);
      const queued = await store.read((tx) => tx.hasNotificationWork(0));
      return { pending: count('pending'), sent: count('sent'), failed: count('failed'), queued };
    },
    /** Audit checkpoints signed so far: the lines of the heads file in the data directory. */
    auditCheckpoints: async () => {
      const file = join(options.dir, 'audit-heads.jsonl');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
    },
    /** Long-polls registered on this node right now. */
    waiting: async () => app.gatehouse.services.gates.waiting(),
    openGates,
    close: async () => {
      await app.close();
      await bus.close();
      await store.close();
    },
  },
);
