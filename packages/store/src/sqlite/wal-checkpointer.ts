import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteDriverPackage } from './driver.js';

/** When the checkpoint thread copies the WAL back into the database file. */
export interface WalCheckpointOptions {
  /** Pages waiting in the WAL from which the thread checkpoints. @default 1000 (SQLite's own default) */
  pages?: number;
  /** How often the thread looks at the WAL's size. @default 50 */
  intervalMs?: number;
}

/** What the checkpointer asks of the writer's connection. */
export interface WalWriter {
  /** How large the WAL grows before the writer checkpoints it itself, in its commit. */
  setAutocheckpoint(pages: number): void;
  /**
   * Copies what the thread left in the WAL, between two of the writer's transactions: after it, the
   * writer's next commit starts the WAL again from its beginning.
   */
  finishCheckpoint(): Promise<void>;
}

/** The checkpoint thread of one store; `close` ends it (and its connection) before the store closes. */
export interface WalCheckpointer {
  close(): Promise<void>;
}

const PAGE_BYTES = 4096;
const DEFAULT_PAGES = 1000;
const DEFAULT_INTERVAL_MS = 50;
/** How often the writer's thread looks for a WAL busy enough to start the checkpoint thread. */
const WATCH_INTERVAL_MS = 1000;
/** Pages the thread may leave for the writer's own checkpoint, a copy of a few milliseconds at most. */
const FINISH_PAGES = 32;
/** Checkpoints the thread runs back to back to catch up with a writer that keeps committing. */
const CATCH_UP_ROUNDS = 4;

/** SQLite's own automatic checkpoint: the writer's until the thread runs, and again if it fails. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * How far the writer lets the WAL grow before it checkpoints on its own while the thread runs: the
 * fallback for a thread that fell behind or stopped, far above the thread's threshold.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

// CommonJS run with `eval`, so the same text runs from the compiled store and from its TypeScript
// sources under test, on every Node.js line. It only reads its settings from workerData.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, openSync, readSync } = require('node:fs');
const { endianness } = require('node:os');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
// A checkpoint needs no cache of its own: the default 16 MiB would fill and the node's memory swing.
db.pragma('cache_size = -256');
// The WAL file is reused from its start once checkpointed, never shrunk: its size says nothing
// after it first grew. The WAL index (the -shm file, in the machine's byte order) says what waits:
// two copies of its header, each with the last valid frame (mxFrame) at byte 16, then the frames
// already copied into the database (nBackfill) at byte 96. https://www.sqlite.org/walformat.html
const header = Buffer.alloc(100);
const u32 = endianness() === 'LE' ? (at) => header.readUInt32LE(at) : (at) => header.readUInt32BE(at);
// Pages not yet copied into the database, or null when the index could not be read whole.
function pagesWaiting() {
  let fd;
  try { fd = openSync(workerData.file + '-shm', 'r'); } catch { return null; }
  let read = 0;
  try { read = readSync(fd, header, 0, header.length, 0); } catch { return null; } finally { closeSync(fd); }
  // Copies that differ were read while the writer changed them.
  if (read < header.length || u32(16) !== u32(64)) return null;
  return Math.max(0, u32(16) - u32(96));
}
// The writer starts the WAL again from its beginning only when a commit finds every page of it
// copied, which a writer that never pauses never does: the WAL would grow to the writer's own
// fallback and its checkpoint would copy thousands of pages inside a commit. So the thread copies
// what arrived while it copied, a few rounds at most, and if a little is still left asks the writer
// to copy that rest between two of its transactions. When nothing is left the writer's next commit
// starts the WAL again by itself, and the writer's thread is spared a copy and its fsync.
const timer = setInterval(() => {
  if ((pagesWaiting() ?? 0) < workerData.thresholdPages) return;
  try {
    let left = null;
    for (let round = 0; round < workerData.catchUpRounds && left !== 0; round++) {
      db.pragma('wal_checkpoint(PASSIVE)');
      left = pagesWaiting();
    }
    if (left !== null && left > 0 && left <= workerData.finishPages) parentPort.postMessage({ type: 'caught-up' });
  } catch (error) { parentPort.postMessage({ type: 'failed', message: String(error) }); }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

const require = createRequire(import.meta.url);

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** Starts the thread; resolves once its connection is open, with a function that ends it. */
async function startThread(
  file: string,
  options: Required<WalCheckpointOptions>,
  events: { onFailure(error: Error): void; onCaughtUp(): void },
): Promise<() => Promise<void>> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // A small, steady heap: the thread only looks at a file size and runs one statement.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    workerData: {
      file,
      driver: require.resolve(sqliteDriverPackage()),
      thresholdPages: options.pages,
      intervalMs: options.intervalMs,
      finishPages: Math.min(FINISH_PAGES, options.pages),
      catchUpRounds: CATCH_UP_ROUNDS,
    },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.off('error', reject);
      resolve();
    });
  });
  worker.on('error', events.onFailure);
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'failed') events.onFailure(new Error(`WAL checkpoint failed: ${message.message}`));
    if (message.type === 'caught-up') events.onCaughtUp();
  });
  return async () => {
    // Held until the thread has closed its connection, so the writer's close comes after it.
    worker.ref();
    worker.postMessage('close');
    await exited;
  };
}

/**
 * Moves `file`'s WAL checkpoints off the writer's thread. SQLite's automatic checkpoint runs inside
 * the commit that crosses its threshold and fsyncs the database file there: milliseconds of the
 * event loop every thousand pages written. Once the WAL has grown to half the threshold (a store
 * that writes; short-lived ones never start a thread), a worker thread with a connection of its own
 * checkpoints whenever `pages` pages wait in the WAL, and the writer's own checkpoint stays only as
 * a fallback far above it, back at SQLite's default should the thread fail. The writer copies only
 * the last few pages the thread left, so that the WAL starts again from its beginning.
 */
export function startWalCheckpointer(
  file: string,
  writer: WalWriter,
  options: WalCheckpointOptions = {},
): WalCheckpointer {
  const settings = {
    pages: options.pages ?? DEFAULT_PAGES,
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
  };
  let stopThread: Promise<(() => Promise<void>) | null> | null = null;
  let closed = false;
  let finishing: Promise<void> | null = null;
  const events = {
    onFailure() {
      if (!closed) writer.setAutocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
    },
    onCaughtUp() {
      if (closed || finishing !== null) return;
      // A failed copy leaves the pages to the thread's next round or, at worst, the fallback.
      finishing = writer
        .finishCheckpoint()
        .catch(() => undefined)
        .finally(() => {
          finishing = null;
        });
    },
  };
  const watch = setInterval(
    () => {
      if (walBytes(file) < (settings.pages * PAGE_BYTES) / 2) return;
      clearInterval(watch);
      stopThread = startThread(file, settings, events).then(
        (stop) => {
          writer.setAutocheckpoint(FALLBACK_AUTOCHECKPOINT_PAGES);
          return stop;
        },
        () => null,
      );
    },
    Math.min(WATCH_INTERVAL_MS, settings.intervalMs * 20),
  );
  watch.unref();
  return {
    async close() {
      clearInterval(watch);
      const stop = await stopThread;
      closed = true;
      await finishing;
      if (stop) await stop();
    },
  };
}
