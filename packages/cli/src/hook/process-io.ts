import { readFile, writeSync } from 'node:fs';
import type { HookIo } from './claude-code.js';
import { OutOfTime } from './hook-http.js';

/**
 * The hook's standard input and output through their file descriptors. Creating `process.stdin` and
 * `process.stdout` streams costs about 7 ms, a fifth of the hook's whole run, and it runs before every
 * tool call. An output the pipe does not take at once goes through the stream after all.
 */
export interface FdIo extends HookIo {
  /** Calls `done` once everything written has left the process. */
  flush(done: () => void): void;
}

type StreamName = 'stdout' | 'stderr';

function fdOutput(fd: 1 | 2, name: StreamName, used: Set<StreamName>) {
  return {
    write(text: string): void {
      let bytes = Buffer.from(text, 'utf8');
      if (!used.has(name)) {
        try {
          while (bytes.length > 0) bytes = bytes.subarray(writeSync(fd, bytes));
          return;
        } catch (error) {
          // A full non-blocking pipe (EAGAIN): the stream queues the rest. Any other error (a closed pipe) is thrown.
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        }
      }
      used.add(name);
      process[name].write(bytes);
    },
  };
}

/** Reads all of standard input; rejects when `signal` aborts first. */
function readInput(signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new OutOfTime('the hook input did not arrive in time'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    readFile(0, 'utf8', (error, text) => {
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(text);
    });
  });
}

export function fdIo(): FdIo {
  const used = new Set<StreamName>();
  return {
    get stdin() {
      return process.stdin;
    },
    readInput,
    stdout: fdOutput(1, 'stdout', used),
    stderr: fdOutput(2, 'stderr', used),
    flush(done) {
      const streams = [...used];
      if (streams.length === 0) return done();
      let left = streams.length;
      for (const name of streams) process[name].write('', () => --left === 0 && done());
    },
  };
}
