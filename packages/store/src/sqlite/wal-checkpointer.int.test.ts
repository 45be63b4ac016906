import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqliteDriver } from './driver.js';
import { createSqliteStore, type SqliteStore } from './sqlite-store.js';
import {
  FALLBACK_AUTOCHECKPOINT_PAGES,
  SQLITE_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
} from './wal-checkpointer.js';

const clock = { now: () => Date.now() };
/** A small threshold and a quick look, so a test writes a few hundred kilobytes and waits briefly. */
const walCheckpoint = { pages: 64, intervalMs: 10 };
const PAGE_BYTES = 4096;

/** Appends `count` audit events of about 16 KiB each, one transaction per event. */
async function writeEvents(store: SqliteStore, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await store.transaction((tx) =>
      tx.appendAudit({
        kind: 'test.bulk',
        actor: 'system:test',
        subject: null,
        data: { i, text: 'x'.repeat(16_000) },
      }),
    );
  }
}

/** The WAL index's header (walformat.html): its last valid frame (mxFrame) and the frames copied (nBackfill). */
function walIndex(file: string): { frames: number; copied: number } {
  const header = readFileSync(`${file}-shm`).subarray(0, 100);
  const u32 = (at: number) => (endianness() === 'LE' ? header.readUInt32LE(at) : header.readUInt32BE(at));
  return { frames: u32(16), copied: u32(96) };
}

/** Pages in the WAL not yet copied into the database. */
function pagesWaiting(file: string): number {
  const { frames, copied } = walIndex(file);
  return frames - copied;
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WAL checkpoints on their own thread', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(options: Parameters<typeof createSqliteStore>[0]['walCheckpoint'] = walCheckpoint) {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-wal-'));
    const file = join(dir, 'gatehouse.db');
    const store = await createSqliteStore({ file, clock, walCheckpoint: options });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => store.close());
    return { store, file };
  }

  it('copies the WAL into the database file off the writer, which keeps its own checkpoint as a far fallback', async () => {
    const { store, file } = await open();
    expect(store.pragmas().walAutocheckpoint).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    const before = statSync(file).size;
    // About 300 pages: far below the writer's own threshold, so only the thread checkpoints them.
    await writeEvents(store, 75);
    await until(() => store.pragmas().walAutocheckpoint === FALLBACK_AUTOCHECKPOINT_PAGES, 'the thread');
    await until(() => statSync(file).size - before >= 250 * PAGE_BYTES, 'the checkpoint');
    const page = await store.queryAudit({ kind: 'test.bulk', limit: 100 });
    expect(page.items).toHaveLength(75);
  });

  it('checkpoints again only once the threshold of new pages waits, though the reused WAL file stays large', async () => {
    const { store, file } = await open();
    await writeEvents(store, 75);
    await until(() => store.pragmas().walAutocheckpoint === FALLBACK_AUTOCHECKPOINT_PAGES, 'the thread');
    await until(() => pagesWaiting(file) < walCheckpoint.pages, 'the first checkpoints');
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(walCheckpoint.pages * PAGE_BYTES);
    // What the thread left below its threshold is copied here, so the count starts from nothing.
    const { driver: Database } = loadSqliteDriver();
    const own = new Database(file);
    own.pragma('wal_checkpoint(PASSIVE)');
    own.close();
    expect(pagesWaiting(file)).toBe(0);
    const copied = () => statSync(file).mtimeMs;
    const before = copied();
    // A few small commits, far fewer pages than the threshold, over many of the thread's looks.
    for (let i = 0; i < 4; i++) {
      await store.transaction((tx) =>
        tx.appendAudit({ kind: 'test.small', actor: 'system:test', subject: null, data: { i } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pagesWaiting(file)).toBeGreaterThan(0);
    expect(pagesWaiting(file)).toBeLessThan(walCheckpoint.pages);
    expect(copied()).toBe(before);
    await writeEvents(store, 20);
    await until(() => copied() !== before, 'the checkpoint of the new pages');
  });

  it('starts no thread for a store that writes little', async () => {
    const { store, file } = await open({ pages: 1000, intervalMs: 10 });
    await writeEvents(store, 5);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(store.pragmas().walAutocheckpoint).toBe(SQLITE_AUTOCHECKPOINT_PAGES);
    expect(statSync(`${file}-wal`).size).toBeLessThan(500 * PAGE_BYTES);
  });

  it('closes the thread before the writer, which removes the WAL, and loses nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-wal-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'gatehouse.db');
    const store = await createSqliteStore({ file, clock, walCheckpoint });
    await writeEvents(store, 75);
    await until(() => store.pragmas().walAutocheckpoint === FALLBACK_AUTOCHECKPOINT_PAGES, 'the thread');
    await writeEvents(store, 10);
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = await createSqliteStore({ file, clock, walCheckpoint });
    try {
      const page = await reopened.queryAudit({ kind: 'test.bulk', limit: 100 });
      expect(page.items.map((event) => event.data.i)).toEqual(Array.from({ length: 85 }, (_, i) => i % 75));
    } finally {
      await reopened.close();
    }
  });

  it("keeps the WAL near its threshold under writes that never pause, without the writer's own checkpoint", async () => {
    const { store, file } = await open();
    await writeEvents(store, 75);
    await until(() => store.pragmas().walAutocheckpoint === FALLBACK_AUTOCHECKPOINT_PAGES, 'the thread');
    // About 6,000 pages, one commit after another: the thread's checkpoint never finds the WAL idle.
    let largest = 0;
    for (let i = 0; i < 30; i++) {
      await writeEvents(store, 50);
      largest = Math.max(largest, statSync(`${file}-wal`).size);
    }
    // Before the writer copied the thread's last pages, the WAL grew to the fallback's 10,000 pages.
    expect(largest).toBeLessThan((FALLBACK_AUTOCHECKPOINT_PAGES / 4) * PAGE_BYTES);
  });

  it('leaves the writer alone when the thread copied every page, and the WAL still starts again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-wal-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'gatehouse.db');
    const { driver: Database } = loadSqliteDriver();
    const db = new Database(file);
    cleanups.push(() => {
      db.close();
    });
    db.pragma('journal_mode = WAL');
    db.exec('create table notes (body blob)');
    let copiesAsked = 0;
    const checkpointer = startWalCheckpointer(
      file,
      {
        setAutocheckpoint: (pages) => db.pragma(`wal_autocheckpoint = ${pages}`),
        async finishCheckpoint() {
          copiesAsked++;
          db.pragma('wal_checkpoint(PASSIVE)');
        },
      },
      walCheckpoint,
    );
    cleanups.push(() => checkpointer.close());
    const insert = db.prepare('insert into notes (body) values (randomblob(16000))');
    // About 300 pages, then nothing: the thread finds the writer idle and copies all of it.
    for (let i = 0; i < 75; i++) insert.run();
    await until(
      () => db.pragma('wal_autocheckpoint', { simple: true }) === FALLBACK_AUTOCHECKPOINT_PAGES,
      'the thread',
    );
    await until(() => pagesWaiting(file) === 0, 'the checkpoint');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(copiesAsked).toBe(0);
    const framesBefore = walIndex(file).frames;
    insert.run();
    // The next commit wrote at the WAL's beginning.
    expect(walIndex(file).frames).toBeLessThan(framesBefore);
  });
});
