import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../sqlite/sqlite-store.js';
import type { ExecutedStatement, Store } from '../types.js';
import { startTestPostgres } from './postgres.js';

/** A store on either dialect with every statement it runs recorded, for tests that count statements. */
export type TracedStore = { store: Store; trace: ExecutedStatement[]; close(): Promise<void> };

const clock = { now: () => Date.now() };

export const openTracedStore: Record<'sqlite' | 'postgres', () => Promise<TracedStore>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
    const trace: ExecutedStatement[] = [];
    const store = await createSqliteStore({
      file: join(dir, 'gatehouse.db'),
      clock,
      onStatement: (statement) => trace.push(statement),
    });
    return {
      store,
      trace,
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  async postgres() {
    const trace: ExecutedStatement[] = [];
    const target = await startTestPostgres({ onStatement: (statement) => trace.push(statement) });
    return { store: target.store, trace, close: () => target.stop() };
  },
};
