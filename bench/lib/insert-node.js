// Child process: the allow-path baseline, a bare Fastify route that inserts one row per request into
// SQLite (better-sqlite3, WAL, synchronous=NORMAL, one transaction per request). It opens SQLite with
// the store's own driver, the better-sqlite3 build that runs on this Node.js line.
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadSqliteDriver } from '../../packages/store/dist/testing/index.js';
import { serveParent } from './child.js';

const Database = loadSqliteDriver().driver;

const options = JSON.parse(process.argv[2]);
const db = new Database(join(options.dir, 'baseline.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'create table if not exists requests (id integer primary key, agent text not null, body text not null, at integer not null)',
);
const insert = db.prepare('insert into requests (agent, body, at) values (?, ?, ?)');

const app = Fastify({ logger: false });
app.post('/v1/requests', async (request) => {
  const agent = String(request.headers.authorization ?? '').slice(7, 40);
  const { lastInsertRowid } = insert.run(agent, JSON.stringify(request.body), Date.now());
  return { outcome: 'allowed', id: Number(lastInsertRowid) };
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });

serveParent(
  { url, synchronous: db.pragma('synchronous', { simple: true }) },
  {
    close: async () => {
      await app.close();
      db.close();
    },
  },
);
