// Child process: the round trip's floor, the same three HTTP exchanges as a Gatehouse trip with none of
// its work. POST /v1/gates inserts one row and answers `gated`, GET /v1/gates/:id/wait holds until the
// row is decided, POST /v1/gates/:id/decide updates it and wakes the waiter. Fastify on 127.0.0.1 and
// SQLite at Gatehouse's durability (better-sqlite3, WAL, synchronous=FULL: each commit is fsync'd),
// opened with the store's own driver. No tokens are checked and nothing else is written.
import Fastify from 'fastify';
import { openBareSqlite, serveBareApp } from './bare-sqlite-server.js';

const options = JSON.parse(process.argv[2]);
const db = openBareSqlite(options.dir, 'floor.db', 'FULL');
db.exec('create table if not exists gates (id integer primary key, body text not null, outcome text)');
const insert = db.prepare('insert into gates (body) values (?)');
const decide = db.prepare('update gates set outcome = ? where id = ? and outcome is null');
const outcomeOf = db.prepare('select outcome from gates where id = ?').pluck();

/** Waiters by gate id, woken by the decision's commit. */
const waiters = new Map();

const app = Fastify({ logger: false });
app.post('/v1/gates', async (request) => {
  const { lastInsertRowid } = insert.run(JSON.stringify(request.body));
  return { outcome: 'gated', gateId: String(lastInsertRowid) };
});
app.get('/v1/gates/:id/wait', async (request) => {
  const id = Number(request.params.id);
  const outcome = outcomeOf.get(id);
  if (outcome !== null && outcome !== undefined) return { outcome };
  return new Promise((resolve) => waiters.set(id, (decided) => resolve({ outcome: decided })));
});
app.post('/v1/gates/:id/decide', async (request) => {
  const id = Number(request.params.id);
  if (decide.run('approved', id).changes !== 1) return { decided: false };
  waiters.get(id)?.('approved');
  waiters.delete(id);
  return { decided: true };
});
await serveBareApp(app, db);
