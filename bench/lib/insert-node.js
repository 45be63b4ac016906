// Child process: the allow-path baseline, a bare Fastify route that inserts one row per request into
// SQLite (better-sqlite3, WAL, synchronous=NORMAL, one transaction per request). It opens SQLite with
// the store's own driver, the better-sqlite3 build that runs on this Node.js line.
import Fastify from 'fastify';
import { openBareSqlite, serveBareApp } from './bare-sqlite-server.js';

const options = JSON.parse(process.argv[2]);
const db = openBareSqlite(options.dir, 'baseline.db', 'NORMAL');
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
await serveBareApp(app, db);
