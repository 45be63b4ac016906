// Child process: one Gatehouse node of a cluster on a shared Postgres schema, wired as `gatehouse serve`
// wires it (Postgres store, LISTEN/NOTIFY bus), on 127.0.0.1.
import { buildApp, createPostgresBus, loadConfig } from '../../packages/server/dist/index.js';
import { createPostgresStore } from '../../packages/store/dist/index.js';
import { serveParent } from './child.js';

const { connectionString, schema, dir } = JSON.parse(process.argv[2]);
const clock = { now: () => Date.now() };
const store = await createPostgresStore({ connectionString, schema, clock });
const bus = await createPostgresBus({ connectionString, schema, store });
// Bench agents send far more than a real agent would; per-agent rate limits would measure the limiter.
const unlimited = { perSecond: 0, burst: 1 };
const config = loadConfig(
  {},
  {
    dataDir: dir,
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    rateLimits: { agent: unlimited, token: unlimited },
  },
);
const app = await buildApp({ store, bus, clock, config });
const url = await app.listen({ host: '127.0.0.1', port: 0 });

serveParent(
  { url },
  {
    /** Long-polls registered on this node right now. */
    waiting: async () => app.gatehouse.services.gates.waiting(),
    close: async () => {
      await app.close();
      await bus.close();
      await store.close();
    },
  },
);
