// Finds a Postgres for the benchmarks: GATEHOUSE_TEST_DATABASE_URL, else this machine's server on
// 127.0.0.1:5432 (as .ci/run uses), else the in-process Postgres of the store's test helper.
import pg from 'pg';
import { startTestPostgres } from '../../packages/store/dist/testing/index.js';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh, migrated schema (dropped by `stop()`); `kind` says whether it is a real server. */
export async function startBenchPostgres() {
  const url = process.env.GATEHOUSE_TEST_DATABASE_URL || ((await reachable(LOCAL_URL)) ? LOCAL_URL : null);
  return startTestPostgres({ url });
}
