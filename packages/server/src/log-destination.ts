import { closeSync, openSync, write } from 'node:fs';

/** Where pino writes: never blocks the event loop, never throws, drops and counts what it cannot write. */
export interface LogDestination {
  /** pino's stream interface: one call per log line. */
  write(line: string): void;
  /** Log lines dropped so far because the destination failed or fell too far behind. */
  dropped(): number;
  /** Writes what is queued (waiting at most `timeoutMs`), then closes a file it opened. */
  close(timeoutMs?: number): Promise<void>;
}

export interface LogDestinationOptions {
  /** Append to this file; null writes to stdout. */
  file: string | null;
  /** Lines queued beyond this many bytes are dropped. @default 1 MiB */
  maxQueuedBytes?: number;
  /** After a failed write, wait this long before the next. @default 100 */
  retryDelayMs?: number;
}

interface Chunk {
  data: Buffer;
  lines: number;
}

/**
 * An asynchronous log destination. pino's default blocks in a synchronous retry when stdout is a
 * full pipe and throws when a disk is full; here one write is in flight at a time on the thread
 * pool, lines wait in a bounded queue, and a failed write (EAGAIN, ENOSPC, EPIPE…) drops its lines.
 */
export function createLogDestination(options: LogDestinationOptions): LogDestination {
  const fd = options.file === null ? 1 : openSync(options.file, 'a');
  const maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const queue: Chunk[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let busy = false;
  let closed = false;
  let idle: (() => void) | null = null;

  function next(): void {
    const chunk = closed ? undefined : queue.shift();
    if (chunk === undefined) {
      busy = false;
      idle?.();
      return;
    }
    write(fd, chunk.data, 0, chunk.data.length, null, (error, written) => {
      queuedBytes -= chunk.data.length;
      if (error) {
        dropped += chunk.lines;
        setTimeout(next, retryDelayMs).unref();
        return;
      }
      if (written < chunk.data.length) {
        const rest = chunk.data.subarray(written);
        queue.unshift({ data: rest, lines: chunk.lines });
        queuedBytes += rest.length;
      }
      next();
    });
  }

  return {
    write(line) {
      const data = Buffer.from(line, 'utf8');
      if (closed || queuedBytes + data.length > maxQueuedBytes) {
        dropped += 1;
        return;
      }
      // Lines waiting together go out in one write.
      const last = busy ? queue.at(-1) : undefined;
      if (last && last.data.length < 64 * 1024) queue[queue.length - 1] = merge(last, data);
      else queue.push({ data, lines: 1 });
      queuedBytes += data.length;
      if (!busy) {
        busy = true;
        next();
      }
    },
    dropped: () => dropped,
    async close(timeoutMs = 1000) {
      if (busy) {
        await new Promise<void>((resolve) => {
          idle = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });
      }
      // No write may reach the descriptor once it is closed: its number could be reused.
      closed = true;
      dropped += queue.reduce((sum, chunk) => sum + chunk.lines, 0);
      queue.length = 0;
      if (options.file !== null) closeSync(fd);
    },
  };
}

function merge(chunk: Chunk, data: Buffer): Chunk {
  return { data: Buffer.concat([chunk.data, data]), lines: chunk.lines + 1 };
}
