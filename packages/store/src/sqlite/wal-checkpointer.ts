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

/** What the checkpointer changes on the writer: how large its WAL grows before it checkpoints itself. */
export type SetAutocheckpoint = (pages: number) => void;

/** The checkpoint thread of one store; `close` ends it (and its connection) before the store closes. */
export interface WalCheckpointer {
  close(): Promise<void>;
}

const PAGE_BYTES = 4096;
const DEFAULT_PAGES = 1000;
const DEFAULT_INTERVAL_MS = 50;
/** How often the writer's thread looks for a WAL busy enough to start the checkpoint thread. */
const WATCH_INTERVAL_MS = 1000;

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
function pagesWaiting() {
  let fd;
  try { fd = openSync(workerData.file + '-shm', 'r'); } catch { return 0; }
  let read = 0;
  try { read = readSync(fd, header, 0, header.length, 0); } catch { return 0; } finally { closeSync(fd); }
  // Copies that differ were read while the writer changed them: look again at the next tick.
  if (read < header.length || u32(16) !== u32(64)) return 0;
  return Math.max(0, u32(16) - u32(96));
}
const timer = setInterval(() => {
  if (pagesWaiting() < workerData.thresholdPages) return;
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage({ type: 'failed', message: String(error) }); }
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
  onFailure: (error: Error) => void,
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
  worker.on('error', onFailure);
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'failed') onFailure(new Error(`WAL checkpoint failed: ${message.message}`));
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
 * a fallback far above it, back at SQLite's default should the thread fail.
 */
export function startWalCheckpointer(
  file: string,
  setAutocheckpoint: SetAutocheckpoint,
  options: WalCheckpointOptions = {},
): WalCheckpointer {
  const settings = {
    pages: options.pages ?? DEFAULT_PAGES,
    intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
  };
  let stopThread: Promise<(() => Promise<void>) | null> | null = null;
  let closed = false;
  const ownCheckpoints = () => {
    if (!closed) setAutocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
  };
  const watch = setInterval(
    () => {
      if (walBytes(file) < (settings.pages * PAGE_BYTES) / 2) return;
      clearInterval(watch);
      stopThread = startThread(file, settings, ownCheckpoints).then(
        (stop) => {
          setAutocheckpoint(FALLBACK_AUTOCHECKPOINT_PAGES);
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
      if (stop) await stop();
    },
  };
}
