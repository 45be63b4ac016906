// What the bare baselines share: SQLite opened with the store's own driver (the better-sqlite3 build that
// runs on this Node.js line) in WAL mode, and a Fastify app on 127.0.0.1 served to the parent process.
import { join } from 'node:path';
import { loadSqliteDriver } from '../../packages/store/dist/testing/index.js';
import { serveParent } from './child.js';

/** Opens `<dir>/<name>` in WAL mode at `synchronous` ('NORMAL' or 'FULL'). */
export function openBareSqlite(dir, name, synchronous) {
  const Database = loadSqliteDriver().driver;
  const db = new Database(join(dir, name));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  return db;
}

/** Listens on 127.0.0.1 and announces the URL and the durability to the parent; `close` ends both. */
export async function serveBareApp(app, db) {
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
}
